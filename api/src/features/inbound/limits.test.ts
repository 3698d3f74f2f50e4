import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MESSAGE_SHAPES, messageOfShape } from '../../../test/inbound-messages.ts';
import { MAX_INBOUND_BYTES } from '../../inbound/parse.ts';
import type { InboundEmail } from '../../inbound/parse.ts';
import { startInboundSmtp } from '../../inbound/smtp-listener.ts';
import type { InboundSmtp } from '../../inbound/smtp-listener.ts';

/**
 * The server's own work for one message (this thread's CPU time: the HTTP exchange, handing the bytes to the
 * parser's thread, taking its result) is a small, fixed cost per byte; parsing on the event loop cost seconds
 * (mailparser's HTML-to-text: 30 s for 2 MiB). Asserted on CPU time, which a busy machine does not stretch; the
 * event loop's delay and the answer times of /healthz polled meanwhile are printed.
 */
const MAX_EVENT_LOOP_CPU_MS = 1_000;

interface Watched<T> {
  result: T;
  /** This thread's CPU time meanwhile, the event loop's longest delay, /healthz answers and the slowest. */
  cpuMs: number;
  loopDelayMaxMs: number;
  healthz: { answers: number; slowestMs: number };
}

/** Runs `work` while /healthz is asked every 200 ms (each ask costs this thread a little CPU too), and measures the event loop (see MAX_EVENT_LOOP_CPU_MS). */
async function watched<T>(t: TestApp, work: () => Promise<T>): Promise<Watched<T>> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const times: number[] = [];
  let working = true;
  const poll = (async () => {
    while (working) {
      const started = performance.now();
      const res = await fetch(`${t.url}/healthz`);
      await res.arrayBuffer();
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  delay.enable();
  const before = process.threadCpuUsage();
  const result = await work().finally(() => void (working = false));
  const cpu = process.threadCpuUsage(before);
  delay.disable();
  await poll;
  return { result, cpuMs: Math.round((cpu.user + cpu.system) / 1000), loopDelayMaxMs: Math.round(delay.max / 1e6), healthz: { answers: times.length, slowestMs: Math.round(Math.max(0, ...times)) } };
}

describe(`Received e-mail of ${MAX_INBOUND_BYTES / (1024 * 1024)} MiB at most, parsed off the event loop`, () => {
  let t: TestApp;
  let received: InboundEmail[];
  beforeAll(async () => {
    t = await startTestApp({ inboundEmailDomain: 'inbox.rollcall.test', inboundEmailSecret: 'inbound-secret-1234' });
    received = [];
    t.deps.inboundRoutes.register('test-inbox', async (mail) => {
      received.push(mail);
      return true;
    });
    // The parser's thread starts with the first message (its start is a one-time cost, not a message's).
    expect((await post(messageOfShape('plain text', 4096))).status).toBe(202);
  });
  afterAll(async () => t.close());

  function post(raw: Buffer) {
    return t.request('POST', '/v1/inbound-email/', { raw, headers: { 'content-type': 'message/rfc822', authorization: 'Bearer inbound-secret-1234' } });
  }

  for (const shape of MESSAGE_SHAPES) {
    it(`takes the largest message (${shape}) without holding the server`, async () => {
      const raw = messageOfShape(shape, MAX_INBOUND_BYTES);
      expect(raw.length).toBe(MAX_INBOUND_BYTES);
      const run = await watched(t, () => post(raw));
      console.log(`POST /v1/inbound-email/, ${shape}, ${raw.length} bytes: event-loop CPU ${run.cpuMs} ms, event-loop delay max ${run.loopDelayMaxMs} ms, /healthz ${run.healthz.answers} answers, slowest ${run.healthz.slowestMs} ms`);
      expect(run.result.status).toBe(202);
      expect(run.result.body).toMatchObject({ accepted: true, routed: true, from: 'bob@example.com' });
      expect(received.at(-1)?.replyText.startsWith('Rolled back.')).toBe(true);
      expect(run.cpuMs).toBeLessThan(MAX_EVENT_LOOP_CPU_MS);
    });
  }

  it('refuses one byte more by its size, before it is parsed (413)', async () => {
    const before = received.length;
    const res = await post(messageOfShape('plain text', MAX_INBOUND_BYTES + 1));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: `The message is larger than ${MAX_INBOUND_BYTES / (1024 * 1024)} MiB.`, code: 'payload_too_large' });
    expect(received).toHaveLength(before);
  });

  describe('over SMTP', () => {
    let smtp: InboundSmtp;
    beforeAll(async () => {
      smtp = await startInboundSmtp({ port: 0, host: '127.0.0.1', domain: 'inbox.rollcall.test', routes: t.deps.inboundRoutes, logger: t.deps.logger });
    });
    afterAll(async () => smtp.close());

    it('advertises SIZE and refuses a larger declared size at MAIL FROM (552), before any data', async () => {
      const session = await smtpSession(smtp.port);
      try {
        expect(await session.send('EHLO client.example.com')).toMatch(new RegExp(`\r\n250[- ]SIZE ${MAX_INBOUND_BYTES}\r\n`));
        expect(await session.send(`MAIL FROM:<bob@example.com> SIZE=${MAX_INBOUND_BYTES + 1}`)).toMatch(/^552 /);
        expect(await session.send(`MAIL FROM:<bob@example.com> SIZE=${MAX_INBOUND_BYTES}`)).toMatch(/^250 /);
      } finally {
        session.close();
      }
    });

    it('counts an undeclared message as it streams and refuses it past the limit (552), routing nothing; takes the largest', async () => {
      const before = received.length;
      const session = await smtpSession(smtp.port);
      try {
        await session.send('EHLO client.example.com');
        expect(await session.send('MAIL FROM:<bob@example.com>')).toMatch(/^250 /);
        expect(await session.send('RCPT TO:<builder.acme@inbox.rollcall.test>')).toMatch(/^250 /);
        expect(await session.send('DATA')).toMatch(/^354 /);
        expect(await session.data(messageOfShape('HTML only', MAX_INBOUND_BYTES + 1))).toMatch(/^552 /);
        expect(received).toHaveLength(before);
        // The same session goes on: the largest message is taken, parsed and routed.
        expect(await session.send('MAIL FROM:<bob@example.com>')).toMatch(/^250 /);
        expect(await session.send('RCPT TO:<builder.acme@inbox.rollcall.test>')).toMatch(/^250 /);
        expect(await session.send('DATA')).toMatch(/^354 /);
        const run = await watched(t, () => session.data(messageOfShape('HTML only', MAX_INBOUND_BYTES)));
        console.log(`SMTP, HTML only, ${MAX_INBOUND_BYTES} bytes: event-loop CPU ${run.cpuMs} ms, event-loop delay max ${run.loopDelayMaxMs} ms, /healthz ${run.healthz.answers} answers, slowest ${run.healthz.slowestMs} ms`);
        expect(run.result).toMatch(/^250 /);
        expect(received).toHaveLength(before + 1);
        expect(received.at(-1)).toMatchObject({ from: 'bob@example.com', to: ['builder.acme@inbox.rollcall.test'], via: 'smtp' });
        expect(received.at(-1)?.replyText.startsWith('Rolled back.\n\nShipped the importer & fixed the exporter')).toBe(true);
        expect(run.cpuMs).toBeLessThan(MAX_EVENT_LOOP_CPU_MS);
      } finally {
        session.close();
      }
    });
  });
});

/** A plain SMTP conversation: each command's whole reply (multi-line replies joined), and DATA sent dot-stuffed. */
async function smtpSession(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let buffered = '';
  let waiting: ((reply: string) => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    // A reply ends with a line whose code is followed by a space.
    const end = /(^|\r\n)\d{3} [^\r\n]*\r\n$/.exec(buffered);
    if (end && waiting) {
      const reply = buffered;
      buffered = '';
      const deliver = waiting;
      waiting = null;
      deliver(reply);
    }
  });
  const next = () => new Promise<string>((resolve) => (waiting = resolve));
  await next();
  return {
    send(command: string): Promise<string> {
      const reply = next();
      socket.write(`${command}\r\n`);
      return reply;
    },
    data(message: Buffer): Promise<string> {
      const reply = next();
      const stuffed = message.toString('latin1').replace(/(^|\r\n)\./g, '$1..');
      socket.write(Buffer.from(`${stuffed}${stuffed.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1'));
      return reply;
    },
    close: () => socket.destroy(),
  };
}
