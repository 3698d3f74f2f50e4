import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { MAX_INBOUND_BYTES } from '../inbound/parse.ts';

const MiB = 1024 * 1024;

interface Exchange {
  /** The first answer: status line and headers (lower-cased names), body. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** What became of the next request sent on the same connection. */
  next: 'answered' | 'closed' | 'no answer';
}

/**
 * Sends `head` and then `body` (written at once, as a client that does not wait for an early answer does) on a
 * fresh keep-alive connection, reads the first answer whole, then sends `GET /healthz` on the same connection and
 * waits up to `patienceMs` for an answer or for the server to close it. Errors writing the rest of a refused
 * body (EPIPE, ECONNRESET once the server has closed) are expected and ignored.
 */
function oversizedThenNext(url: string, head: string, body: Buffer[], patienceMs = 20_000): Promise<Exchange> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = Buffer.alloc(0);
    let first: Omit<Exchange, 'next'> | null = null;
    let timer: NodeJS.Timeout | undefined;
    const settle = (next: Exchange['next']) => {
      clearTimeout(timer);
      socket.destroy();
      if (first) resolve({ ...first, next });
      else reject(new Error(`the connection ended (${next}) before a whole answer: ${received.toString('latin1').slice(0, 300)}`));
    };
    socket.on('error', () => {});
    socket.on('close', () => settle('closed'));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!first) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length']);
        if (received.length < end + 4 + length) return;
        first = { status: Number(statusLine.split(' ')[1]), headers, body: received.subarray(end + 4, end + 4 + length).toString('utf8') };
        received = received.subarray(end + 4 + length);
        socket.write('GET /healthz HTTP/1.1\r\nHost: rollcall.test\r\n\r\n');
        timer = setTimeout(() => settle('no answer'), patienceMs);
      }
      if (first && received.toString('latin1').startsWith('HTTP/1.1 200')) settle('answered');
    });
    socket.write(head);
    for (const part of body) socket.write(part);
  });
}

const post = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nHost: rollcall.test\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;

/** `bytes` of body sent chunked (no Content-Length: the limit is found while reading), without the final chunk. */
function chunked(bytes: number): Buffer[] {
  const piece = Buffer.alloc(64 * 1024, 'a');
  return Array.from({ length: Math.ceil(bytes / piece.length) }, () => Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
}

describe('A body over its limit: 413 payload_too_large, and the connection closes instead of hanging (keep-alive)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The server's own keep-alive timeout: a connection left waiting would hang for 65 s.
    t = await startTestApp({ inboundEmailDomain: 'inbox.rollcall.test', inboundEmailSecret: 'inbound-secret-1234' }, {}, {}, { keepAliveTimeout: 65_000 });
  });
  afterAll(async () => t.close());

  const readers: { name: string; path: string; headers: Record<string, string>; limit: number; detail: string }[] = [
    {
      name: 'the answer page\'s form (anonymous: read before the token is checked)',
      path: '/checkins/answer/not-a-token',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      limit: 256 * 1024,
      detail: 'The form is larger than 256 KiB.',
    },
    {
      name: 'POST /v1/inbound-email/ (raw MIME)',
      path: '/v1/inbound-email/',
      headers: { 'Content-Type': 'message/rfc822', Authorization: 'Bearer inbound-secret-1234' },
      limit: MAX_INBOUND_BYTES,
      detail: `The message is larger than ${MAX_INBOUND_BYTES / MiB} MiB.`,
    },
    {
      name: 'a JSON body',
      path: '/v1/api-keys/',
      headers: { 'Content-Type': 'application/json' },
      limit: MiB,
      detail: 'The request body is larger than 1 MiB.',
    },
  ];

  for (const reader of readers) {
    it(`${reader.name}: by Content-Length, and while reading a chunked body`, async () => {
      const size = reader.limit + 3 * MiB;
      const declared = await oversizedThenNext(t.url, post(reader.path, { ...reader.headers, 'Content-Length': size }), [Buffer.alloc(size, 'a')]);
      const streamed = await oversizedThenNext(t.url, post(reader.path, { ...reader.headers, 'Transfer-Encoding': 'chunked' }), chunked(size));
      for (const res of [declared, streamed]) {
        expect(res.status).toBe(413);
        expect(JSON.parse(res.body)).toEqual({ detail: reader.detail, code: 'payload_too_large' });
        expect(res.headers.connection).toBe('close');
        expect(res.next).toBe('closed');
      }
    });
  }

  it('refuses a declared Content-Length over the limit before reading the body (none is sent)', async () => {
    const res = await oversizedThenNext(t.url, post('/checkins/answer/not-a-token', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': 10 * MiB }), []);
    expect(res.status).toBe(413);
    expect(res.next).toBe('closed');
  });

  it('a body within its limit leaves the connection open for the next request', async () => {
    const form = Buffer.from('form_key=x&answer=fine');
    const res = await oversizedThenNext(t.url, post('/checkins/answer/not-a-token', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': form.length }), [form]);
    expect(res.status).toBe(403);
    expect(res.headers.connection).toBe('keep-alive');
    expect(res.next).toBe('answered');
  });
});
