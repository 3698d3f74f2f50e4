import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { CERT_FILE, startHttpsReceiver } from './receivers.ts';
import { serveProcess } from './serve-process.ts';
import type { HttpsReceiver } from './receivers.ts';
import { killed } from './processes.ts';

const KEY = `rk_${'C'.repeat(40)}`;

/** `rollcall serve` in a child process, trusting the test certificate through NODE_EXTRA_CA_CERTS. */
function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  return serveProcess({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEY: KEY,
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    NODE_EXTRA_CA_CERTS: CERT_FILE,
    DELIVERY_CONCURRENCY: '1',
    DELIVERY_POLL_MS: '50',
  });
}

async function api(url: string, method: string, pathname: string, body?: unknown) {
  const res = await fetch(`${url}${pathname}`, { method, headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

describe('Crash safety (CONTRACT §10): SIGKILL between commit and send, and after send before marking', () => {
  let rx: HttpsReceiver | null = null;
  const children: ChildProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-crash-'));
  afterEach(async () => {
    for (const child of children) await killed(child);
    await rx?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('after a restart every delivery arrives at least once, with the same webhook-id', async () => {
    // The receiver holds the first request open: the server has sent it and waits for the answer.
    const hold = new Promise<never>(() => {});
    rx = await startHttpsReceiver(() => hold);
    const first = await serve(dataDir);
    children.push(first.child);
    const created = await api(first.url, 'POST', '/v1/webhook-subscription/', { hook_url: `${rx.url}/hook`, subscriptions: ['kudos.posted'] });
    expect(created.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const sample = await api(first.url, 'POST', '/v1/webhook-subscription/sample/', { event: 'kudos.posted' });
      expect(sample.status).toBe(202);
    }
    await rx.waitFor(1);
    await new Promise((r) => setTimeout(r, 200));
    // One delivery is on the wire (sent, not marked); four are committed and not sent (concurrency 1).
    expect(rx.received).toHaveLength(1);
    await killed(first.child);

    rx.setResponder(() => ({ status: 204 }));
    const second = await serve(dataDir);
    children.push(second.child);
    await rx.waitFor(6, 20_000);

    const ids = rx.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(5);
    expect(ids.filter((id) => id === ids[0])).toHaveLength(2); // the interrupted one, sent again with its id
    const verifier = new Webhook(created.body.signing_secret);
    for (const req of rx.received) expect(verifier.verify(req.body, req.headers)).toMatchObject({ event: 'kudos.posted' });

    // Marked delivered after the restart (poll until the last one is recorded).
    let delivered = 0;
    for (let i = 0; i < 50 && delivered < 5; i++) {
      delivered = (await api(second.url, 'GET', '/v1/deliveries/?status=delivered')).body.count;
      if (delivered < 5) await new Promise((r) => setTimeout(r, 100));
    }
    expect(delivered).toBe(5);
    const pending = await api(second.url, 'GET', '/v1/deliveries/?status=pending');
    expect(pending.body.count).toBe(0);

    // A clean stop (SIGTERM) closes the worker pool and exits 0.
    const exit = new Promise<number | null>((resolve) => second.child.once('exit', (code) => resolve(code)));
    second.child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});

describe('Crash safety of co-authored reports: a SIGKILL loses no acknowledged part of the day\'s answer', () => {
  const children: ChildProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-crash-parts-'));
  afterEach(async () => {
    for (const child of children) await killed(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every report answered 201 before the kill is in the co-author\'s answer after the restart', async () => {
    const first = await serve(dataDir);
    children.push(first.child);
    const me = (await api(first.url, 'GET', '/v1/me/')).body;
    const checkin = await api(first.url, 'POST', '/v1/checkins/create/', {
      name: 'Stand-up', schedule: { days: [0, 1, 2, 3, 4, 5, 6] }, participants: { user_uuids: [me.uuid] },
      questions: [{ question_type: 'text', question: 'Done?' }],
    });
    expect(checkin.status).toBe(201);
    // Reports go out in waves of 20 at once (the group commit batches them); the kill lands during a wave.
    const acknowledged: string[] = [];
    let n = 0;
    const wave = () => Promise.all(Array.from({ length: 20 }, async () => {
      const content = `Report ${n++}`;
      try {
        const res = await api(first.url, 'POST', '/v1/agent-reports/', { agent_name: 'crash-bot', content, co_authors: [me.uuid] });
        if (res.status === 201) acknowledged.push(content);
      } catch {
        // the connection died with the process: not acknowledged
      }
    }));
    for (let i = 0; i < 5; i++) await wave();
    const inFlight = wave();
    await new Promise((r) => setTimeout(r, 5));
    await killed(first.child);
    await inFlight;
    expect(acknowledged.length).toBeGreaterThanOrEqual(100);

    const second = await serve(dataDir);
    children.push(second.child);
    const history = await api(second.url, 'GET', `/v1/checkins/${checkin.body.uuid}/responses/`);
    const lines: string[] = history.body.results[0].responses[0].response.split('\n');
    for (const content of acknowledged) expect(lines).toContain(`${content} (co-authored with crash-bot)`);
    expect(new Set(lines).size).toBe(lines.length);
  });
});
