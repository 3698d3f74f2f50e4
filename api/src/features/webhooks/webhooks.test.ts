import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { TEST_CA, startHttpsReceiver } from '../../../test/receivers.ts';
import type { HttpsReceiver } from '../../../test/receivers.ts';
import { recordEvent } from './events.ts';
import { dispatchEvents, withoutAnonymousPeople } from './dispatch.ts';
import { DISPATCHED_EVENT_RETENTION_DAYS } from '../../outbox/events.ts';
import { pruneOrganizationEvents } from './feature.ts';
import { SecretBox } from '../../outbound/secret-box.ts';

const EVENT = 'followups.response.completed';

describe('Organization webhooks (CONTRACT §7, §10)', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<TestApp['seedOrganization']>>;
  let rx: HttpsReceiver;
  beforeEach(async () => {
    t = await startTestApp({ allowPrivateWebhooks: true }, { DELIVERY_RETRY_SCHEDULE: '10s,1m,5m' }, { ca: TEST_CA, random: () => 0.5 });
    t.clock.set(new Date()); // webhook-timestamp is checked against the receiver's real clock
    acme = await t.seedOrganization();
    rx = await startHttpsReceiver();
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  async function subscribe(body: Record<string, unknown> = {}, example = false) {
    const res = await t.request('POST', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_url: `${rx.url}/hook`, subscriptions: [EVENT], ...body }, example });
    expect(res.status).toBe(201);
    return res.body;
  }

  it('creates (201, signing secret once), lists without secrets, and deletes with a JSON body', async () => {
    const created = await subscribe({ name: 'Ops', bearer: 'b-123' }, true);
    expect(created).toMatchObject({ hook_url: `${rx.url}/hook`, name: 'Ops', subscriptions: [EVENT], has_bearer: true, active: true });
    expect(created.hook_id).toBe(created.id);
    expect(created.signing_secret).toMatch(/^whsec_/);
    const list = await t.request('GET', '/v1/webhook-subscription/', { key: acme.adminKey });
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).not.toHaveProperty('signing_secret');
    expect(JSON.stringify(list.body)).not.toContain('b-123');

    const globex = await t.seedOrganization({ name: 'Globex' });
    const foreign = await t.request('DELETE', '/v1/webhook-subscription/', { key: globex.adminKey, body: { hook_id: created.hook_id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    const deleted = await t.request('DELETE', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_id: created.hook_id } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ detail: 'Webhook subscription deleted.', hook_id: created.hook_id });
    expect((await t.request('GET', '/v1/webhook-subscription/', { key: acme.adminKey })).body.count).toBe(0);
    const missingBody = await t.request('DELETE', '/v1/webhook-subscription/', { key: acme.adminKey });
    expect(missingBody.body).toEqual({ hook_id: ['This field is required.'] });
  });

  it('validates events and refuses members', async () => {
    const bad = await t.request('POST', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_url: `${rx.url}/x`, subscriptions: ['nope.event'] } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['subscriptions.0']);
    const tasks = await t.request('POST', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_url: `${rx.url}/x`, subscriptions: ['tasks.*'] } });
    expect(tasks.status).toBe(201);
    const member = await t.seedUser(acme.org.uuid);
    const refused = await t.request('POST', '/v1/webhook-subscription/', { key: member.key, body: { hook_url: `${rx.url}/x`, subscriptions: [EVENT] } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('org_admin_required');
  });

  it('drains recorded events into signed deliveries with the CONTRACT envelope; anonymous events carry no user', async () => {
    const sub = await subscribe({ bearer: 'bearer-xyz' });
    await subscribe({ subscriptions: ['kudos.posted'] });
    await t.db.transaction(async (trx) => {
      await recordEvent(trx, { organizationUuid: acme.org.uuid, event: EVENT, payload: { followup_uuid: 'f1', has_issue: true, user: { uuid: 'u1', full_name: 'Ann' } } }, t.clock.now());
      await recordEvent(trx, { organizationUuid: acme.org.uuid, event: EVENT, payload: { followup_uuid: 'f1', is_anonymous: true, user: { uuid: 'u2' }, user_uuid: 'u2', responses: [{ response: 'x', user: 'u2' }] } }, t.clock.now());
    });
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(2);
    // Unordered channel: two concurrent deliveries may arrive in either order.
    const first = rx.received.find((r) => r.json.body.has_issue)!;
    const second = rx.received.find((r) => r.json.body.is_anonymous)!;
    expect(first.method).toBe('POST');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['x-bearer']).toBe('bearer-xyz');
    expect(first.json).toEqual({
      event: EVENT,
      event_timestamp: t.clock.now().toISOString(),
      hook: { id: sub.hook_id, name: '127.0.0.1' },
      body: { followup_uuid: 'f1', has_issue: true, user: { uuid: 'u1', full_name: 'Ann' } },
    });
    // Standard Webhooks verification with the reference library.
    const verified = new Webhook(sub.signing_secret).verify(first.body, first.headers);
    expect(verified).toEqual(first.json);
    expect(first.headers['webhook-id']).toMatch(/^msg_/);
    expect(second.json.body).toEqual({ followup_uuid: 'f1', is_anonymous: true, responses: [{ response: 'x' }] });
    const events = await t.db('organization_events').whereNull('dispatched_at');
    expect(events).toHaveLength(0);
  });

  it('stores only the events a subscription wants; events of a removed subscription are marked in batches, undelivered, and pruned after a week', async () => {
    await subscribe({ subscriptions: ['kudos.posted'] });
    const globex = await t.seedOrganization({ name: 'Globex' });
    expect(await recordEvent(t.db, { organizationUuid: globex.org.uuid, event: EVENT, payload: { n: 0 } }, t.clock.now())).toBeNull();
    expect(await recordEvent(t.db, { organizationUuid: acme.org.uuid, event: EVENT, payload: { n: 0 } }, t.clock.now())).toBeNull();
    expect(await t.db('organization_events')).toHaveLength(0);

    const sub = await subscribe();
    await t.db.transaction(async (trx) => {
      for (let i = 1; i <= 4; i++) expect(await recordEvent(trx, { organizationUuid: acme.org.uuid, event: EVENT, payload: { n: i } }, t.clock.now())).not.toBeNull();
    });
    expect((await t.request('DELETE', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_id: sub.hook_id } })).status).toBe(200);
    expect(await dispatchEvents(t.db, t.clock.now(), 2)).toBe(2);
    expect(await dispatchEvents(t.db, t.clock.now(), 2)).toBe(2);
    expect(await dispatchEvents(t.db, t.clock.now(), 2)).toBe(0);
    expect(await t.db('organization_events').whereNull('dispatched_at')).toHaveLength(0);
    expect(await t.db('deliveries').where({ channel: 'webhook' })).toHaveLength(0);

    t.clock.advance(DISPATCHED_EVENT_RETENTION_DAYS * 86_400_000 - 60_000);
    expect(await pruneOrganizationEvents(t.deps)).toBe(0);
    t.clock.advance(120_000);
    expect(await pruneOrganizationEvents(t.deps)).toBe(4);
    expect(await t.db('organization_events')).toHaveLength(0);
  });

  it('verifies with a caller-chosen secret as UTF-8 key bytes', async () => {
    await subscribe({ secret: 'my-own-secret-123' });
    const sample = await t.request('POST', '/v1/webhook-subscription/sample/', { key: acme.adminKey, body: { event: EVENT } });
    expect(sample.status).toBe(202);
    expect(sample.body.queued).toBe(1);
    await t.deps.delivery.runDue();
    const [req] = rx.received;
    expect(new Webhook(new Uint8Array(Buffer.from('my-own-secret-123')), { format: 'raw' }).verify(req.body, req.headers)).toMatchObject({ event: EVENT, body: { sample: true } });
    expect(() => new Webhook(new Uint8Array(Buffer.from('wrong-secret-000')), { format: 'raw' }).verify(req.body, req.headers)).toThrow();
  });

  it('signs with any secret it takes: a whsec_ secret the standard libraries cannot read signs with its own bytes', async () => {
    for (const secret of ['whsec_not*base64!', 'whsec_abc', 'whsec_' + Buffer.from('sixteen byte key').toString('base64')]) {
      await subscribe({ secret });
      await t.request('POST', '/v1/webhook-subscription/sample/', { key: acme.adminKey, body: { event: EVENT } });
      await t.deps.delivery.runDue();
      const req = rx.received.at(-1)!;
      // The receiver's side: the standard library with the same string where it reads it, the raw bytes otherwise.
      let verifier: Webhook;
      try {
        verifier = new Webhook(secret);
      } catch {
        verifier = new Webhook(new Uint8Array(Buffer.from(secret)), { format: 'raw' });
      }
      expect([secret, verifier.verify(req.body, req.headers)]).toMatchObject([secret, { event: EVENT }]);
      await t.request('DELETE', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_id: (await t.db('webhook_subscriptions').first('uuid'))!.uuid } });
    }
    expect((await t.db('deliveries')).map((d) => [d.status, d.attempts])).toEqual([['delivered', 1], ['delivered', 1], ['delivered', 1]]);
  });

  it('refuses at registration a bearer no request could carry as X-BEARER', async () => {
    for (const bearer of ['two\nlines', ' padded ', 'emoji 🙂']) {
      const res = await t.request('POST', '/v1/webhook-subscription/', { key: acme.adminKey, body: { hook_url: `${rx.url}/x`, subscriptions: [EVENT], bearer } });
      expect([bearer, res.status, res.body]).toEqual([bearer, 400, { bearer: ['Must fit in the X-BEARER header: no line breaks or other control characters, no characters beyond Latin-1, no spaces at either end.'] }]);
    }
  });

  it('a secret the key cannot open fails the delivery at once, with its reason, and is never retried', async () => {
    const sub = await subscribe({ bearer: 'b-1' });
    // As after a restore with another ENCRYPTION_KEY: sealed by a box whose key this server does not have.
    const otherKey = new SecretBox(Buffer.alloc(32, 7));
    await t.db('webhook_subscriptions').where({ uuid: sub.hook_id }).update({ secret_encrypted: otherKey.encrypt('whsec_c2VjcmV0') });
    await t.request('POST', '/v1/webhook-subscription/sample/', { key: acme.adminKey, body: { event: EVENT } });
    await t.deps.delivery.runDue();
    const reason = "local error, not retried: cannot decrypt the subscription's signing secret: the encryption key (ENCRYPTION_KEY or DATA_DIR/encryption.key) is not the one it was stored with, or the stored value is damaged";
    const [row] = await t.db('deliveries');
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: reason });
    t.clock.advance(24 * 3_600_000);
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(0);
    const listed = await t.request('GET', `/v1/deliveries/${row.uuid}/`, { key: acme.adminKey });
    expect(listed.body).toMatchObject({ status: 'failed', attempts: 1, last_error: reason, next_attempt_at: null, attempt_log: [{ attempt: 1, outcome: 'failed', error: reason }] });
  });

  it('retries on the schedule with jitter and the same webhook-id, records every attempt, ends as failed, and can be redelivered', async () => {
    await subscribe();
    rx.setResponder(() => ({ status: 500, body: { error: 'down' } }));
    await t.request('POST', '/v1/webhook-subscription/sample/', { key: acme.adminKey, body: { event: EVENT } });
    const start = t.clock.now().getTime();
    await t.deps.delivery.runDue();
    let [row] = await t.db('deliveries');
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'HTTP 500' });
    // 10 s ± 10 % (random pinned at 0.5: exactly 10 s).
    expect(new Date(row.next_attempt_at).getTime() - start).toBe(10_000);
    await t.deps.delivery.runDue();
    expect(rx.received).toHaveLength(1); // not due yet
    for (const [advance, expected] of [[10_000, 60_000], [60_000, 300_000]] as const) {
      t.clock.advance(advance);
      const before = t.clock.now().getTime();
      await t.deps.delivery.runDue();
      [row] = await t.db('deliveries');
      expect(new Date(row.next_attempt_at).getTime() - before).toBe(expected);
    }
    t.clock.advance(300_000);
    await t.deps.delivery.runDue();
    [row] = await t.db('deliveries');
    expect(row).toMatchObject({ status: 'failed', attempts: 4 });
    expect(rx.received).toHaveLength(4);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);

    const failed = await t.request('GET', '/v1/deliveries/?status=failed', { key: acme.adminKey });
    expect(failed.body.count).toBe(1);
    expect(failed.body.results[0]).toMatchObject({ uuid: row.uuid, channel: 'webhook', status: 'failed', attempts: 4, last_status_code: 500, last_error: 'HTTP 500', webhook_id: rx.received[0].headers['webhook-id'] });
    const detail = await t.request('GET', `/v1/deliveries/${row.uuid}/`, { key: acme.adminKey, example: true });
    expect(detail.body.attempt_log.map((a: { outcome: string }) => a.outcome)).toEqual(['retry', 'retry', 'retry', 'failed']);
    expect(detail.body.attempt_log[0]).toMatchObject({ attempt: 1, status_code: 500, error: 'HTTP 500' });

    rx.setResponder(() => ({ status: 200, body: { ok: true } }));
    const again = await t.request('POST', `/v1/deliveries/${row.uuid}/redeliver/`, { key: acme.adminKey });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('pending');
    await t.deps.delivery.runDue();
    [row] = await t.db('deliveries');
    expect(row.status).toBe('delivered');
    expect(rx.received[4].headers['webhook-id']).toBe(rx.received[0].headers['webhook-id']);
    const globex = await t.seedOrganization({ name: 'Globex' });
    expect((await t.request('GET', `/v1/deliveries/${row.uuid}/`, { key: globex.adminKey })).status).toBe(404);
    expect((await t.request('GET', '/v1/deliveries/?status=lost', { key: acme.adminKey })).body.code).toBe('invalid_filter_value');
  });

  it('honours Retry-After, does not follow redirects, and disables the endpoint on 410', async () => {
    const sub = await subscribe();
    const target = await startHttpsReceiver();
    rx.setResponder(() => ({ status: 503, headers: { 'retry-after': '3600' } }));
    await t.request('POST', '/v1/webhook-subscription/sample/', { key: acme.adminKey, body: { event: EVENT } });
    const start = t.clock.now().getTime();
    await t.deps.delivery.runDue();
    let [row] = await t.db('deliveries');
    expect(new Date(row.next_attempt_at).getTime() - start).toBe(3_600_000);

    rx.setResponder(() => ({ status: 302, headers: { location: `${target.url}/elsewhere` } }));
    t.clock.advance(3_600_000);
    await t.deps.delivery.runDue();
    [row] = await t.db('deliveries');
    expect(row.last_error).toBe('HTTP 302 (redirects are not followed)');
    expect(target.received).toHaveLength(0);
    await target.close();

    rx.setResponder(() => ({ status: 410 }));
    t.clock.advance(60_000);
    await t.deps.delivery.runDue();
    [row] = await t.db('deliveries');
    expect(row.status).toBe('failed');
    const list = await t.request('GET', '/v1/webhook-subscription/', { key: acme.adminKey });
    expect(list.body.results[0]).toMatchObject({ hook_id: sub.hook_id, active: false, disabled_reason: 'The endpoint answered 410 Gone.' });
    // A disabled subscription gets no new deliveries.
    await recordEvent(t.db, { organizationUuid: acme.org.uuid, event: EVENT, payload: {} }, t.clock.now());
    await t.deps.delivery.runDue();
    expect(await t.db('deliveries').select('uuid')).toHaveLength(1);
  });

  it('filters by subscribed_objects and never crosses organizations', async () => {
    await subscribe({ subscribed_objects: ['0190c8f4-0000-7000-8000-000000000001'] });
    const globex = await t.seedOrganization({ name: 'Globex' });
    await recordEvent(t.db, { organizationUuid: acme.org.uuid, event: EVENT, payload: { followup_uuid: '0190c8f4-0000-7000-8000-000000000002' } }, t.clock.now());
    await recordEvent(t.db, { organizationUuid: globex.org.uuid, event: EVENT, payload: { followup_uuid: '0190c8f4-0000-7000-8000-000000000001' } }, t.clock.now());
    await recordEvent(t.db, { organizationUuid: acme.org.uuid, event: EVENT, payload: { followup_uuid: '0190c8f4-0000-7000-8000-000000000001', n: 1 } }, t.clock.now());
    await t.deps.delivery.runDue();
    expect(rx.received.map((r) => r.json.body.n)).toEqual([1]);
  });

  it('never stores or logs the signing secret or the bearer in clear', async () => {
    const sub = await subscribe({ bearer: 'bearer-very-secret-1', secret: 'signing-very-secret-2' });
    await t.request('POST', '/v1/webhook-subscription/sample/', { key: acme.adminKey, body: { event: EVENT } });
    await t.deps.delivery.runDue();
    let dump = '';
    for (const table of ['webhook_subscriptions', 'deliveries', 'delivery_attempts']) dump += JSON.stringify(await t.db(table));
    expect(dump).toContain(sub.hook_id);
    for (const secret of ['bearer-very-secret-1', 'signing-very-secret-2']) {
      expect(dump).not.toContain(secret);
      expect(t.logs.join('')).not.toContain(secret);
    }
  });
});

describe('event payloads: anonymity', () => {
  it('drops people at any depth of an anonymous payload and keeps every other key as given, __proto__ included', () => {
    const payload = JSON.parse('{"is_anonymous": true, "user": {"uuid": "u"}, "__proto__": {"email": "e", "x": 1}, "answers": [{"respondent": "r", "constructor": 2}]}');
    expect(JSON.stringify(withoutAnonymousPeople(payload))).toBe('{"is_anonymous":true,"__proto__":{"x":1},"answers":[{"constructor":2}]}');
  });
});
