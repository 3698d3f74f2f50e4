/**
 * Received messages of each shape that costs a parser something, built to an exact size (the largest the server
 * takes, or one byte more): what the inbound tests send to show that no shape holds the server's event loop.
 */

const HEAD = [
  'From: Bob Builder <bob@example.com>',
  'To: builder.acme@inbox.rollcall.test',
  'Subject: Re: Deploy finished',
  'Message-ID: <large@example.com>',
  'Date: Tue, 10 Mar 2026 15:00:00 +0000',
  'MIME-Version: 1.0',
].join('\r\n');

const repeatTo = (unit: string, bytes: number) => unit.repeat(Math.max(0, Math.floor(bytes / unit.length)));

/** Each shape's message with a body of about `room` bytes (the caller pads it to its exact size). */
const SHAPES = {
  'HTML only': (room: number) => `Content-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>Rolled back.</p>${repeatTo('<p>Shipped the <b>importer</b> &amp; fixed <a href="https://example.com/a">the exporter</a></p>\r\n', room)}</body></html>\r\n`,
  'plain text': (room: number) => `Content-Type: text/plain; charset=utf-8\r\n\r\nRolled back.\r\n\r\nOn Tue, Mar 10, 2026 at 2:00 PM Rollcall wrote:\r\n${repeatTo('> Shipped the importer and fixed the exporter today.\r\n', room)}`,
  'multipart with attachments': (room: number) => {
    const attachment = Buffer.alloc(Math.floor(room * 0.36), 7).toString('base64').replace(/.{76}/g, '$&\r\n');
    const part = (name: string) => `--m\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename="${name}"\r\n\r\n${attachment}\r\n`;
    return `Content-Type: multipart/mixed; boundary="m"\r\n\r\n--m\r\nContent-Type: multipart/alternative; boundary="a"\r\n\r\n--a\r\nContent-Type: text/plain\r\n\r\nRolled back.\r\n--a\r\nContent-Type: text/html\r\n\r\n<p>Rolled back.</p>\r\n--a--\r\n${part('one.png')}${part('two.png')}--m--\r\n`;
  },
  'HTML nested a hundred thousand deep': (room: number) => `Content-Type: text/html\r\n\r\nRolled back.${repeatTo('<div><blockquote>', room / 2)}x${repeatTo('</blockquote></div>', room / 2)}\r\n`,
  'HTML on one line of tag openings': (room: number) => `Content-Type: text/html\r\n\r\nRolled back.${repeatTo('<a', room)}\r\n`,
  'text on one line ("On" and spaces)': (room: number) => `Content-Type: text/plain\r\n\r\nRolled back.\r\nOn ${repeatTo(' ', room)}x\r\n`,
};

export type MessageShape = keyof typeof SHAPES;
export const MESSAGE_SHAPES = Object.keys(SHAPES) as MessageShape[];

/** A message of `shape` exactly `bytes` long (padded with spaces after its end, and a last CRLF), from Bob, replying "Rolled back.". */
export function messageOfShape(shape: MessageShape, bytes: number, head = HEAD): Buffer {
  const start = `${head}\r\n`;
  const message = Buffer.from(start + SHAPES[shape](bytes - Buffer.byteLength(start) - 1024));
  if (message.length > bytes) throw new Error(`${shape}: ${message.length} bytes, more than ${bytes}`);
  return Buffer.concat([message, Buffer.alloc(bytes - message.length - 2, ' '), Buffer.from('\r\n')]);
}
