import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnreadableMessage } from './inbound-email.ts';
import { REPLY_PARSER_MAX_CHARS, htmlToText, stripQuoted, visibleText } from './message-text.ts';
import { readMessage } from './read-message.ts';

const MiB = 1024 * 1024;

describe('The text of a received message', () => {
  it('reads HTML as a reader sees it: lines, paragraphs, quotations, entities; scripts, styles and comments dropped', () => {
    const html = '<html><head><title>T</title><style>p{x:1}</style></head><body><p>Hello\n world &amp; you&nbsp;&#x263A;</p><p>a < b</p><!-- c --><script>alert(1)</script>'
      + 'Line<br>two<br><br>three<ul><li>x</li><li>y</li></ul><blockquote><p>q1</p><blockquote>q2<br>q3</blockquote></blockquote>after</body></html>';
    expect(htmlToText(html)).toBe('Hello world & you \u263a\n\na < b\n\nLine\ntwo\n\nthree\nx\ny\n\n> q1\n\n> q2\n> q3\nafter');
    // Gmail writes a line per <div> and a blank line as <div><br></div>.
    expect(htmlToText('<div>Importer</div><div><br></div><div>Exporter</div><div>tests</div>')).toBe('Importer\n\nExporter\ntests');
    // An element that never ends loses its start tag only; a comment that never ends takes the rest.
    expect(htmlToText('<style>a<b>kept</b>')).toBe('akept');
    expect(htmlToText('x<!-- never closed <p>y</p>')).toBe('x');
    expect(htmlToText('<<<a>b')).toBe('<<b');
  });

  it('cuts the quoted original off a reply', () => {
    expect(stripQuoted('Fine\n\nOn Tue, Mar 10, 2026 at 2:00 PM X <x@y.z> wrote:\n> quoted')).toBe('Fine');
    expect(stripQuoted('Fine\nOn Tue, Mar 10, 2026 at 2:00 PM X <x@\ny.z> wrote:\nquoted')).toBe('Fine');
    expect(stripQuoted('Fine\n-----Original Message-----\nFrom: x')).toBe('Fine');
    expect(stripQuoted('Fine\nFrom: X <x@y.z>\nSent: Tuesday\nquoted')).toBe('Fine');
    expect(stripQuoted('On time, as ever.\nShipped.')).toBe('On time, as ever.\nShipped.');
  });

  it('finds the reply\'s own text (without quote or signature) in its first REPLY_PARSER_MAX_CHARS only', () => {
    expect(visibleText('Fine\n\nOn Mon, Mar 9, 2026 at 9:00 AM X <x@y.z> wrote:\n> quoted\n')).toBe('Fine');
    expect(visibleText(`${'word '.repeat(REPLY_PARSER_MAX_CHARS)}`).length).toBeLessThanOrEqual(REPLY_PARSER_MAX_CHARS);
  });

  it('takes pathological text of 1 MiB in passes that cannot backtrack (a quadratic step would not finish)', () => {
    const size = MiB;
    const html = ['<'.repeat(size), '<a'.repeat(size / 2), '<div>'.repeat(size / 10) + 'x' + '</div>'.repeat(size / 12), '<!--'.repeat(size / 4), '<style>'.repeat(size / 7),
      '<blockquote>'.repeat(size / 24) + 'a<br>'.repeat(size / 10), '&#'.repeat(size / 2), `<p ${'a'.repeat(size)}`, ' \n'.repeat(size / 2)];
    for (const input of html) expect(htmlToText(input).length).toBeLessThanOrEqual(2 * input.length);
    const text = [`On ${' '.repeat(size)}x`, `On ${'a '.repeat(size / 2)}`, '> '.repeat(size / 2), 'x\n'.repeat(size / 2), `${'On x\n'.repeat(size / 5)}`, `From: ${'a'.repeat(size)}\nSent: x`];
    for (const input of text) expect(stripQuoted(input).length).toBeLessThanOrEqual(input.length);
  });

  it('never throws, and never gives more text than it was given (generated HTML and text)', () => {
    const token = fc.constantFrom('<p>', '</p>', '<div>', '</div>', '<br>', '<br/>', '<blockquote>', '</blockquote>', '<style>', '</style>', '<!--', '-->', '<', '>', '&amp;', '&#x263a;', '&#99999999;', '&nbsp;',
      ' ', '\n', '\r\n', 'On x wrote:', '> ', '-- ', 'Sent from my phone', '1. ', 'text', '\u0001', '\u0004');
    const body = fc.oneof(fc.array(token, { maxLength: 200 }).map((t) => t.join('')), fc.string({ unit: 'binary', maxLength: 400 }));
    fc.assert(
      fc.property(body, (input) => {
        expect(htmlToText(input).length).toBeLessThanOrEqual(2 * input.length);
        expect(stripQuoted(input).length).toBeLessThanOrEqual(input.length);
        expect(visibleText(input).length).toBeLessThanOrEqual(Math.min(input.length, REPLY_PARSER_MAX_CHARS));
      }),
      { numRuns: 300 },
    );
  });
});

/** A MIME message built from generated parts: its headers, its structure, its encodings and its text are all drawn. */
const mimeMessage = (() => {
  const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.array(fc.constantFrom('<p>', '</div>', '<br>', '&amp;', 'On x wrote:', '> q', '\r\n', 'word ', '=3D', '=\r\n'), { maxLength: 60 }).map((t) => t.join('')));
  const encode = (body: string, encoding: string) =>
    encoding === 'base64' ? Buffer.from(body).toString('base64').replace(/.{76}/g, '$&\r\n') : encoding === 'quoted-printable' ? body.replace(/=(?![0-9A-F]{2})/g, '=3D') : body;
  const leaf = fc.record({ type: fc.constantFrom('text/plain', 'text/html', 'image/png', 'application/octet-stream'), encoding: fc.constantFrom('7bit', '8bit', 'base64', 'quoted-printable'), body: text, charset: fc.constantFrom('utf-8', 'iso-8859-1', 'x-unknown') });
  const part = (p: { type: string; encoding: string; body: string; charset: string }) => `Content-Type: ${p.type}; charset=${p.charset}\r\nContent-Transfer-Encoding: ${p.encoding}\r\n\r\n${encode(p.body, p.encoding)}`;
  return fc
    .record({
      from: fc.oneof(fc.constant('Bob <bob@example.com>'), fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' '))),
      subject: fc.string({ unit: 'grapheme', maxLength: 80 }).map((s) => s.replace(/[\r\n]/g, ' ')),
      structure: fc.constantFrom('single', 'alternative', 'mixed'),
      parts: fc.array(leaf, { minLength: 1, maxLength: 4 }),
    })
    .map(({ from, subject, structure, parts }) => {
      const head = `From: ${from}\r\nTo: checkin-x@inbox.rollcall.test\r\nSubject: ${subject}\r\nMIME-Version: 1.0\r\n`;
      if (structure === 'single') return Buffer.from(`${head}${part(parts[0])}\r\n`);
      const boundary = 'b-0123456789';
      return Buffer.from(`${head}Content-Type: multipart/${structure}; boundary="${boundary}"\r\n\r\n${parts.map((p) => `--${boundary}\r\n${part(p)}\r\n`).join('')}--${boundary}--\r\n`);
    });
})();

describe('Reading a received message (mailparser, then our text steps)', () => {
  it('never fails but as UnreadableMessage, and its text is never longer than the message (generated messages and bytes)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: mimeMessage }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b)) }), async (raw) => {
        try {
          const mail = await readMessage(raw, 'http');
          expect(mail.text.length).toBeLessThanOrEqual(raw.length);
          expect(mail.replyText.length).toBeLessThanOrEqual(mail.text.length);
          expect(visibleText(mail.text).length).toBeLessThanOrEqual(REPLY_PARSER_MAX_CHARS);
        } catch (err) {
          expect(err).toBeInstanceOf(UnreadableMessage);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads an HTML-only message with our own HTML-to-text (mailparser\'s is off)', async () => {
    const raw = Buffer.from('From: Bob <bob@example.com>\r\nTo: x@inbox.rollcall.test\r\nContent-Type: text/html\r\n\r\n<div>Shipped &amp; done</div><div><br></div><div>Next</div><blockquote>On Mon X wrote:<br>q</blockquote>\r\n');
    const mail = await readMessage(raw, 'smtp', ['Other@Inbox.Rollcall.Test']);
    expect(mail).toMatchObject({ from: 'bob@example.com', fromName: 'Bob', to: ['other@inbox.rollcall.test', 'x@inbox.rollcall.test'], text: 'Shipped & done\n\nNext\n> On Mon X wrote:\n> q', replyText: 'Shipped & done\n\nNext', via: 'smtp' });
    expect(visibleText(mail.text)).toBe('Shipped & done\n\nNext');
  });
});
