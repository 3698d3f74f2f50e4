import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { TEST_CA, startHttpsReceiver } from '../../../test/receivers.ts';
import type { HttpsReceiver } from '../../../test/receivers.ts';
import { recordEvent } from './events.ts';
import { dispatchEvents, withoutAnonymousPeople } from './dispatch.ts';
import { DISPATCHED_EVENT_RETENTION_DAYS, EVENTS } from '../../outbox/events.ts';
import { pruneOrganizationEvents } from './feature.ts';
import { sampleBody } from './service.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import { createBoard } from '../../../test/plan-fixtures.ts';
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

  it('filters by subscribed_objects: the objects of every event type as the API emits it, never across organizations', async () => {
    const p = await seedPeople(t, { name: 'Objects', beta: true });
    const key = p.adminKey;
    const hook = async (path: string, subscriptions: string[], objects: string[]) =>
      expect((await t.request('POST', '/v1/webhook-subscription/', { key, body: { hook_url: `${rx.url}/${path}`, subscriptions, subscribed_objects: objects } })).status).toBe(201);
    const checkin = async (name: string) => (await t.request('POST', '/v1/checkins/create/', {
      key, body: { name, schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] }, questions: [{ question_type: 'text', question: 'Done?' }] },
    })).body;
    const daily = await checkin('Daily');
    const weekly = await checkin('Weekly');
    const team = (await t.request('POST', '/v1/teams/', { key, body: { name: 'Platform' } })).body;
    const form = (await t.request('POST', '/v1/forms/create/', { key, body: { name: 'Gear', questions: [{ question_type: 'text', question: 'What?' }] } })).body;
    const { board } = await createBoard(t, key);
    const { board: other } = await createBoard(t, key, { name: 'Other', key: 'OTH' });
    const all = [...EVENTS, 'tasks.*'];
    await hook('checkin', all, [daily.uuid]);
    await hook('person', all, [p.member.user.uuid]);
    await hook('team', all, [team.uuid]);
    await hook('form', all, [form.uuid]);
    await hook('board', all, [board.uuid]);
    await hook('all', all, []);
    const globex = await t.seedOrganization({ name: 'Globex' });
    await t.request('POST', '/v1/webhook-subscription/', { key: globex.adminKey, body: { hook_url: `${rx.url}/globex`, subscriptions: all, subscribed_objects: [daily.uuid, p.member.user.uuid] } });

    const answer = (c: { uuid: string }, as: string) => t.request('POST', `/v1/checkins/${c.uuid}/responses/`, { key: as, body: { responses: [{ index: 0, response: 'Shipped' }] } });
    expect((await answer(daily, p.other.key)).status).toBe(201);
    expect((await answer(weekly, p.member.key)).status).toBe(201);
    expect((await t.request('POST', `/v1/forms/${form.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'A laptop' }] } })).status).toBe(201);
    expect((await t.request('POST', `/v1/teams/${team.uuid}/member/`, { key, body: { members: [{ uuid: p.member.user.uuid }] } })).status).toBe(200);
    expect((await t.request('POST', '/v1/kudos/', { key: p.other.key, body: { content: 'Team work', receivers: [team.uuid] } })).status).toBe(201);
    expect((await t.request('POST', '/v1/kudos/', { key: p.member.key, body: { content: 'Quietly', receivers: [p.other.user.uuid], is_anonymous: true } })).status).toBe(201);
    expect((await t.request('PATCH', `/v1/users/${p.guest.user.uuid}/`, { key, body: { is_active: false } })).status).toBe(200);
    const task = (await t.request('POST', `/v1/plan/boards/${board.uuid}/tasks/`, { key, body: { title: 'Here' } })).body;
    expect((await t.request('POST', `/v1/plan/boards/${other.uuid}/tasks/`, { key, body: { title: 'Elsewhere' } })).status).toBe(201);
    await t.deps.delivery.runDue();
    await t.deps.delivery.runDue();

    const got = (path: string) => rx.received.filter((r) => r.url === `/${path}`).map((r) => `${r.json.event} ${r.json.body.content ?? r.json.body.followup?.name ?? r.json.body.task?.title ?? r.json.body.form?.name ?? r.json.body.user?.uuid ?? ''}`).sort();
    expect(got('checkin')).toEqual(['followups.response.completed Daily']);
    // The member's own answer, form response and team membership, and the kudos their team received; not the kudos they gave anonymously.
    expect(got('person')).toEqual(['followups.response.completed Weekly', 'forms.response.created Gear', 'kudos.posted Team work', `organization.team_user_added ${p.member.user.uuid}`]);
    expect(got('team')).toEqual(['kudos.posted Team work', `organization.team_user_added ${p.member.user.uuid}`]);
    expect(got('form')).toEqual(['forms.response.created Gear']);
    expect(got('board')).toEqual(['tasks.created Here']);
    expect(got('globex')).toEqual([]);
    expect(rx.received.find((r) => r.url === '/board')!.json.body.object_uuid).toBe(task.uuid);
    expect(rx.received.filter((r) => r.url === '/all').map((r) => r.json.event).sort()).toEqual([
      'followups.response.completed', 'followups.response.completed', 'forms.response.created', 'kudos.posted', 'kudos.posted',
      'organization.team_user_added', 'organization.user_deactivated', 'tasks.created', 'tasks.created',
    ]);

    // A sample of each event has the shape of the real one: the same keys at every depth where both hold objects.
    const mismatches = (real: unknown, sample: unknown, path = 'body'): string[] => {
      if (real === null || sample === null || typeof real !== 'object' || typeof sample !== 'object') return [];
      if (Array.isArray(real) || Array.isArray(sample)) {
        if (!Array.isArray(real) || !Array.isArray(sample)) return [path];
        return real.length && sample.length ? mismatches(real[0], sample[0], `${path}.0`) : [];
      }
      const [a, b] = [Object.keys(real).sort().join(), Object.keys(sample).filter((k) => k !== 'sample').sort().join()];
      if (a !== b) return [`${path}: ${a} / ${b}`];
      return Object.keys(real).flatMap((k) => mismatches((real as Record<string, unknown>)[k], (sample as Record<string, unknown>)[k], `${path}.${k}`));
    };
    // (An anonymous event has its people removed; samples are of named ones.)
    for (const real of rx.received.filter((r) => r.url === '/all' && r.json.body.is_anonymous !== true)) expect(mismatches(real.json.body, sampleBody(real.json.event)), real.json.event).toEqual([]);
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
