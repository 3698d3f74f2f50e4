import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { ParsedMail } from 'mailparser';

const here = path.dirname(new URL(import.meta.url).pathname);
export const CERT_FILE = path.join(here, 'fixtures', 'localhost-cert.pem');
export const TEST_CA = fs.readFileSync(CERT_FILE);
const KEY = fs.readFileSync(path.join(here, 'fixtures', 'localhost-key.pem'));

export interface Received {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  json: any;
}

export type Responder = (req: Received) => { status?: number; headers?: Record<string, string>; body?: unknown } | Promise<{ status?: number; headers?: Record<string, string>; body?: unknown }> | void;

/** A real HTTPS server on 127.0.0.1 with the test certificate; records every request. */
export function startHttpsReceiver(responder: Responder = () => ({ status: 204 })) {
  return startReceiver(responder, true);
}

/** The same on plain HTTP: an operator's local service (an OpenAI-compatible model server, say). */
export function startHttpReceiver(responder: Responder = () => ({ status: 204 })) {
  return startReceiver(responder, false);
}

async function startReceiver(responder: Responder, tls: boolean) {
  const received: Received[] = [];
  let respond = responder;
  const waiters: { count: number; resolve: () => void }[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = undefined;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
      const entry: Received = { method: req.method ?? '', url: req.url ?? '', headers, body, json };
      received.push(entry);
      for (const w of [...waiters]) if (received.length >= w.count) w.resolve();
      const answer = (await respond(entry)) ?? {};
      res.writeHead(answer.status ?? 204, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  };
  const server = tls ? https.createServer({ key: KEY, cert: TEST_CA }, handle) : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    received,
    setResponder(r: Responder) {
      respond = r;
    },
    waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited for ${count} requests, got ${received.length}`)), timeoutMs);
        waiters.push({ count, resolve: () => { clearTimeout(timer); resolve(); } });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type HttpsReceiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * What the sink answers a message it received whole: accept it (250), leave the client waiting for the answer
 * (`hold`: the message is kept, as a server that delivered it before the client heard back), or refuse it with a
 * code after reading it (a 451 the sender retries).
 */
export type SmtpAnswer = 'accept' | 'hold' | number;

/** A real SMTP server (smtp-server) on 127.0.0.1 keeping every message it receives, parsed. */
export async function startSmtpSink(options: { reject?: (to: string) => number | null; afterData?: (mail: ParsedMail) => SmtpAnswer } = {}) {
  const messages: (ParsedMail & { envelopeTo: string[] })[] = [];
  let afterData = options.afterData ?? (() => 'accept' as SmtpAnswer);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = options.reject?.(address.address) ?? null;
      if (code) {
        const err = new Error('rejected') as Error & { responseCode: number };
        err.responseCode = code;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }));
        const answer = afterData(mail);
        if (answer === 'hold') return;
        if (answer === 'accept') return callback();
        const err = new Error('try again later') as Error & { responseCode: number };
        err.responseCode = answer;
        callback(err);
      }, callback);
    },
  });
  // A client that dies mid-message (a killed server process) resets its connection: not the test's failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    setAfterData(answer: (mail: ParsedMail) => SmtpAnswer) {
      afterData = answer;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
