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

  it('a permanent SMTP refusal (5xx) fails at once; the admin sees why', async () => {
    sink = await startSmtpSink({ reject: (to) => (to.startsWith('nobody') ? 550 : null) });
    t = await startTestApp({}, { SMTP_URL: sink.url });
    const acme = await t.seedOrganization();
    await t.request('POST', '/v1/send-email/', { key: acme.adminKey, body: { to: 'nobody@example.com', subject: 'x', body_html: 'x' } });
    await t.deps.delivery.runDue();
    const failed = await t.request('GET', '/v1/deliveries/?status=failed&channel=email', { key: acme.adminKey });
    expect(failed.body.count).toBe(1);
    expect(failed.body.results[0]).toMatchObject({ channel: 'email', destination: 'nobody@example.com', status: 'failed', attempts: 1, last_status_code: 550 });
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
