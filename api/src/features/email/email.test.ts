import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { startSmtpSink } from '../../../test/receivers.ts';
import { enqueueEmail } from '../../outbox/deliveries.ts';
import { closeDailyCaps } from '../../jobs/index.ts';

describe('E-mail out (CONTRACT §7, §10) and the free-plan daily cap (spec Limits, CONTRACT §5)', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>> | null = null;
  afterEach(async () => {
    await t.close();
    await sink?.close();
    sink = null;
  });

  it('sends POST /v1/send-email/ over SMTP_URL with the caller as Reply-To, and invitation-style outbox rows too', async () => {
    sink = await startSmtpSink();
    t = await startTestApp({}, { SMTP_URL: sink.url, MAIL_FROM: 'Rollcall <rollcall@acme.test>' });
    const acme = await t.seedOrganization();
    const res = await t.request('POST', '/v1/send-email/', {
      key: acme.adminKey,
      body: { to: ['Bob@Example.com', 'carol@example.com'], subject: 'Weekly notes', body_html: '<p>Hello <b>team</b></p><p>See <a href="https://x.test/n">notes</a></p>' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', to: ['bob@example.com', 'carol@example.com'], subject: 'Weekly notes', sent_count: 2, total_recipients: 2 });
    await enqueueEmail(t.db, { organizationUuid: acme.org.uuid, kind: 'invitation', message: { to: ['new@example.com'], subject: 'You are invited', text: 'Join us' } }, t.clock.now());
    await t.deps.delivery.runDue();
    expect(sink.messages).toHaveLength(2);
    const sent = sink.messages.find((m) => m.subject === 'Weekly notes')!;
    expect(sent.envelopeTo).toEqual(['bob@example.com', 'carol@example.com']);
    expect(sent.from?.value[0]).toMatchObject({ name: 'Rollcall', address: 'rollcall@acme.test' });
    expect(sent.replyTo?.text).toBe('admin@acme.test');
    expect(sent.html).toContain('<b>team</b>');
    expect(sent.text?.trim()).toBe('Hello team\nSee notes (https://x.test/n)');
    expect(sink.messages.find((m) => m.subject === 'You are invited')!.text?.trim()).toBe('Join us');
    const rows = await t.db('deliveries').where({ channel: 'email' });
    expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered']);
    const attempts = await t.db('delivery_attempts');
    expect(attempts.every((a) => a.outcome === 'delivered' && a.status_code === 250)).toBe(true);
  });

  it('validates recipients and subject', async () => {
    t = await startTestApp();
    const acme = await t.seedOrganization();
    const res = await t.request('POST', '/v1/send-email/', { key: acme.adminKey, body: { to: 'not-an-address', subject: '', body_html: '<p>x</p>', cc: 'x' } });
    expect(res.body).toEqual({ detail: 'Unknown field: cc.', code: 'unknown_field', extra: { parameter: 'cc' } });
    const bad = await t.request('POST', '/v1/send-email/', { key: acme.adminKey, body: { to: 'not-an-address', subject: 'x'.repeat(513), body_html: '<p>x</p>' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ to: ['Enter one e-mail address or a list of up to 50.'], subject: ['Ensure this field has no more than 512 characters.'] });
  });

  it('a refusal that would repeat fails at once with its reason (5xx but 503, an envelope with no recipient); 4xx and 503 are retried', async () => {
    const codes: Record<string, number> = { gone: 550, nosuch: 553, busy: 450, later: 451, sequence: 503 };
    sink = await startSmtpSink({ reject: (to) => codes[to.split('@')[0]] ?? null });
    t = await startTestApp({}, { SMTP_URL: sink.url, DELIVERY_RETRY_SCHEDULE: '1m' });
    const acme = await t.seedOrganization();
    for (const to of [...Object.keys(codes).map((local) => `${local}@example.com`), ['ok@example.com', 'gone@example.com']]) {
      expect((await t.request('POST', '/v1/send-email/', { key: acme.adminKey, body: { to, subject: 'x', body_html: 'x' } })).status).toBe(201);
    }
    // nodemailer refuses an envelope without a recipient before it asks the server.
    await enqueueEmail(t.db, { organizationUuid: acme.org.uuid, kind: 'notice', message: { to: [], subject: 'x', text: 'x' } }, t.clock.now());
    await t.deps.delivery.runDue();
    const list = (await t.request('GET', '/v1/deliveries/?channel=email', { key: acme.adminKey })).body;
    const by = Object.fromEntries(list.results.map((d: Record<string, unknown>) => [d.destination, [d.status, d.attempts, d.last_status_code, d.last_error]]));
    const refused = (code: number) => `permanent, not retried: EENVELOPE: Can't send mail - all recipients were rejected: ${code} rejected`;
    expect(by).toEqual({
      'gone@example.com': ['failed', 1, 550, refused(550)],
      'nosuch@example.com': ['failed', 1, 553, refused(553)],
      '': ['failed', 1, null, 'permanent, not retried: EENVELOPE: No recipients defined'],
      'busy@example.com': ['pending', 1, 450, "EENVELOPE: Can't send mail - all recipients were rejected: 450 rejected"],
      'later@example.com': ['pending', 1, 451, "EENVELOPE: Can't send mail - all recipients were rejected: 451 rejected"],
      'sequence@example.com': ['pending', 1, 503, "EENVELOPE: Can't send mail - all recipients were rejected: 503 rejected"],
      'ok@example.com, gone@example.com': ['delivered', 1, 250, null],
    });
    expect(sink.messages.map((m) => m.envelopeTo)).toEqual([['ok@example.com']]);
    // Sent to the others; the attempt names the address the server refused.
    const partial = list.results.find((d: { destination: string }) => d.destination.startsWith('ok@'));
    const detail = (await t.request('GET', `/v1/deliveries/${partial.uuid}/`, { key: acme.adminKey })).body;
    expect(detail.attempt_log).toMatchObject([{ outcome: 'delivered', status_code: 250, error: 'refused by the server for gone@example.com' }]);
    // The retried ones go again on the schedule: the one the server now takes is delivered.
    delete codes.busy;
    t.clock.advance(70_000);
    await t.deps.delivery.runDue();
    const busy = (await t.request('GET', '/v1/deliveries/?channel=email&status=delivered', { key: acme.adminKey })).body.results.find((d: { destination: string }) => d.destination === 'busy@example.com');
    expect(busy).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 250, last_error: null });
  });

  it('without SMTP_URL keeps e-mail in the outbox, logs it once (no body), and lists it for admins', async () => {
    t = await startTestApp();
    const acme = await t.seedOrganization();
    await enqueueEmail(t.db, { organizationUuid: acme.org.uuid, kind: 'cli_code', message: { to: ['x@example.com'], subject: 'Your code', text: 'Code: 123456' } }, t.clock.now());
    await t.request('POST', '/v1/send-email/', { key: acme.adminKey, body: { to: 'y@example.com', subject: 'Hi', body_html: 'Hello there' } });
    await t.deps.delivery.runDue();
    await t.deps.delivery.runDue();
    const logged = t.logs.filter((l) => l.includes('e-mail kept in the outbox'));
    expect(logged).toHaveLength(2);
    expect(t.logs.join('')).not.toContain('123456');
    const list = await t.request('GET', '/v1/deliveries/?channel=email&status=pending', { key: acme.adminKey });
    expect(list.body.count).toBe(2);
    const byKind = Object.fromEntries(list.body.results.map((r: { kind: string }) => [r.kind, r]));
    expect(byKind.cli_code).toMatchObject({ held: true, status: 'pending', attempts: 0, payload: { to: ['x@example.com'], subject: 'Your code', text: null } });
    expect(byKind.send_email.payload).toEqual({ to: ['y@example.com'], subject: 'Hi', text: 'Hello there' });
    const member = await t.seedUser(acme.org.uuid);
    expect((await t.request('GET', '/v1/deliveries/', { key: member.key })).status).toBe(403);
  });

  it('caps free-plan organizations at 20 a UTC day: 429 free_plan_daily_limit_exceeded with Retry-After to 00:00 UTC, then rolls over', async () => {
    t = await startTestApp();
    const free = await t.seedOrganization({ plan: 'free' });
    const token = await t.seedToken(free.org.uuid, free.admin.uuid);
    t.clock.set('2026-03-10T23:00:00.000Z');
    const body = { to: 'a@example.com', subject: 's', body_html: 'b' };
    for (let i = 0; i < 20; i++) expect((await t.request('POST', '/v1/send-email/', { token, body })).status).toBe(201);
    const refused = await t.request('POST', '/v1/send-email/', { token, body });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(refused.body).toEqual({
      detail: 'The free plan allows 20 send-email per organization per day. The limit resets at 00:00 UTC, in 3600 seconds.',
      code: 'free_plan_daily_limit_exceeded',
      extra: { limit: 20, retry_after: 3600 },
    });
    // A paid plan has no daily cap.
    const pro = await t.seedOrganization({ name: 'Pro', plan: 'pro' });
    for (let i = 0; i < 22; i++) expect((await t.request('POST', '/v1/send-email/', { key: pro.adminKey, body })).status).toBe(201);
    // 00:00 UTC: a new day, and the job closes the finished one.
    t.clock.set('2026-03-11T00:00:00.000Z');
    expect(await closeDailyCaps(t.deps)).toBe(1);
    expect(t.logs.some((l) => l.includes('daily caps reset'))).toBe(true);
    expect(await t.db('rate_limit_counters').where('bucket', 'like', 'free-daily:%').first()).toBeUndefined();
    expect((await t.request('POST', '/v1/send-email/', { token, body })).status).toBe(201);
  });
});
