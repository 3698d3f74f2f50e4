import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, createBoard, dumpPlanTables, insertTask, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { createApp } from '../../../app.ts';
import { ApiError } from '../../../lib/errors.ts';
import { planActorId as actorId } from '../../../auth/policy.ts';
import { isSqlite } from '../../../db/connection.ts';
import { requestFingerprint } from '../../../http/plan/idempotency.ts';
import { planFrame } from './feature.ts';
import { lookupCredential } from '../../../auth/credentials.ts';
import { sha256Hex } from '../../../lib/secrets.ts';
import { serveTestResources } from '../../../../test/plan-test-resource.ts';

describe('Plan frame: Idempotency-Key, dry runs, person-only endpoints (CONTRACT §9; spec Errors)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  const withKey = (key: string) => ({ 'idempotency-key': key });

  it('replays the first answer for the same key and body, with Idempotency-Replayed: true; the write runs once', async () => {
    const first = await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'Platform', key: 'PLAT' }, withKey('create-plat-0001'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    expect(first.headers.get('location')).toBe(`/v1/plan/boards/${first.body.uuid}/`);
    t.clock.advance(60_000);
    // The same body with its keys in another order is the same request.
    const again = await call('POST', '/v1/plan/boards/', acme.adminKey, { key: 'PLAT', name: 'Platform' }, withKey('create-plat-0001'));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.body).toEqual(first.body);
    expect(await countRows(t, 'plan_boards')).toBe(1);
    expect(await countRows(t, 'plan_changes', (q) => q.where({ object_kind: 'board' }))).toBe(1);
  });

  it('answers 409 idempotency_key_payload_mismatch for the same key with another body; keys are per actor', async () => {
    await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Grow' }, withKey('goal-key-0001'));
    const other = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Shrink' }, withKey('goal-key-0001'));
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ detail: 'This Idempotency-Key was already used with a different request body.', code: 'idempotency_key_payload_mismatch' });
    // Another path with the same key is another request too.
    expect((await call('PATCH', '/v1/plan/goals/0190c8f4-0000-7000-8000-000000000000/', acme.member.key, { name: 'Grow' }, withKey('goal-key-0001'))).body.code).toBe('idempotency_key_payload_mismatch');
    // Someone else's identical key is theirs alone.
    expect((await call('POST', '/v1/plan/goals/', acme.other.key, { name: 'Shrink' }, withKey('goal-key-0001'))).status).toBe(201);
    // A person's CLI session and their key are one actor.
    const token = await t.seedToken(acme.org.uuid, acme.member.user.uuid);
    const viaCli = await t.request('POST', '/v1/plan/goals/', { token, body: { name: 'Grow' }, headers: withKey('goal-key-0001') });
    expect(viaCli.headers.get('idempotency-replayed')).toBe('true');
  });

  it('answers 409 idempotency_in_progress only while the key\'s transaction runs; nothing a dead request left blocks its retry', async () => {
    // What an older version left of a request killed mid-way: a `running` row. It is no answer and holds nothing.
    const fingerprint = requestFingerprint('POST', '/v1/plan/goals/', { name: 'Slow' });
    const stamp = t.clock.now().toISOString();
    await t.db('plan_idempotency_keys').insert({
      actor_id: acme.member.user.uuid, key: 'slow-request-1', organization_uuid: acme.org.uuid, fingerprint, state: 'running',
      locked_until: new Date(t.clock.now().getTime() + 120_000).toISOString(), status: null, headers: null, body: null, created_at: stamp, expires_at: stamp.replace('2026', '2027'),
    });
    const taken = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Slow' }, withKey('slow-request-1'));
    expect(taken.status).toBe(201);
    expect((await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Slow' }, withKey('slow-request-1'))).headers.get('idempotency-replayed')).toBe('true');
    if (isSqlite(t.db)) return; // one connection: a twin waits for the first request's transaction and replays its answer
    // PostgreSQL: while a transaction holds the key (here the test's own), the same key answers 409 at once.
    const held = await t.db.transaction();
    try {
      await held.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`idempotency\n${acme.member.user.uuid}\nbusy-request-1`]);
      const busy = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Busy' }, withKey('busy-request-1'));
      expect(busy.status).toBe(409);
      expect(busy.body).toEqual({ detail: 'A request with this Idempotency-Key is still running; retry later with the same key.', code: 'idempotency_in_progress' });
    } finally {
      await held.rollback();
    }
    expect((await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Busy' }, withKey('busy-request-1'))).status).toBe(201);
  });

  it('keeps an answer 24 hours; after that the key is free again', async () => {
    const first = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Day one' }, withKey('daily-key-0001'));
    t.clock.advance(24 * 3_600_000 - 1_000);
    const replay = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Day one' }, withKey('daily-key-0001'));
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.uuid).toBe(first.body.uuid);
    t.clock.advance(1_000);
    const fresh = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Day two' }, withKey('daily-key-0001'));
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotency-replayed')).toBeNull();
    // The hourly maintenance job prunes expired keys.
    t.clock.advance(24 * 3_600_000);
    expect(await planFrame.jobs![0].run(t.deps)).toBe(1);
  });

  it('refuses keys outside 8–128 characters (400 invalid_idempotency_key) and takes both edges', async () => {
    const rule = '8 to 128 printable ASCII characters without spaces (! to ~)';
    for (const key of ['1234567', 'k'.repeat(129), 'with space1', 'clé-0123456']) {
      const res = await call('POST', '/v1/plan/goals/', acme.member.key, { name: `g ${key.length}` }, withKey(key));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: `Idempotency-Key must be ${rule}.`, code: 'invalid_idempotency_key' });
    }
    // The OpenAPI document states the same rule as the refusal (it said "8–128 characters", and a space is one).
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    const header = doc.paths['/v1/plan/goals/'].post.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
    expect(header.description).toContain(rule);
    expect((await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'eight' }, withKey('12345678'))).status).toBe(201);
    expect((await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'long' }, withKey('k'.repeat(128)))).status).toBe(201);
  });

  it('stores a refusal (4xx) as the key\'s answer too; a validation error likewise', async () => {
    await call('POST', '/v1/plan/goals/', acme.adminKey, { name: 'Taken' });
    const refused = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Taken' }, withKey('refused-key-01'));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('goal_name_conflict');
    const taken = await call('GET', '/v1/plan/goals/', acme.member.key);
    await call('DELETE', `/v1/plan/goals/${taken.body.results[0].uuid}/`, acme.adminKey);
    const replayed = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Taken' }, withKey('refused-key-01'));
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('idempotency-replayed')).toBe('true');

    const invalid = await call('POST', '/v1/plan/goals/', acme.member.key, { name: '' }, withKey('invalid-key-01'));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ name: ['This field is required.'] });
    expect((await call('POST', '/v1/plan/goals/', acme.member.key, { name: '' }, withKey('invalid-key-01'))).headers.get('idempotency-replayed')).toBe('true');
  });

  it('keeps a stored answer across a restart (it lives in the database)', async () => {
    const first = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Durable' }, withKey('restart-key-01'));
    // A second app on the same database: nothing of the first one's memory (caches, counters) is shared.
    const second = createApp({ db: t.db, clock: t.clock, config: t.config, logger: t.deps.logger });
    const server = http.createServer(second.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/plan/goals/`, {
        method: 'POST',
        headers: { 'x-api-key': acme.member.key, 'content-type': 'application/json', ...withKey('restart-key-01') },
        body: JSON.stringify({ name: 'Durable' }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('idempotency-replayed')).toBe('true');
      expect(((await res.json()) as { uuid: string }).uuid).toBe(first.body.uuid);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await second.close();
    }
  });

  it('frees the key after an unexpected failure, and after identifier_allocation_failed (retry with the same key)', async () => {
    let calls = 0;
    const served = await serveTestResources(t.deps, (plan) => {
      plan.tagged('test').write({ method: 'post', path: '/v1/plan/test/flaky/', summary: 'fails twice' }, async () => {
        calls += 1;
        if (calls === 1) throw new Error('disk on fire');
        if (calls === 2) throw new ApiError(409, 'identifier_allocation_failed', 'Could not allocate a key; retry with the same Idempotency-Key.');
        return { calls };
      });
    });
    try {
      const send = () => fetch(`${served.url}/v1/plan/test/flaky/`, { method: 'POST', headers: { 'x-api-key': acme.member.key, ...withKey('flaky-key-001') } });
      expect((await send()).status).toBe(500);
      expect((await send()).status).toBe(409);
      const third = await send();
      expect(third.status).toBe(200);
      expect(await third.json()).toEqual({ calls: 3 });
      expect((await send()).headers.get('idempotency-replayed')).toBe('true');
    } finally {
      await served.close();
    }
  });

  it('person-only endpoints: 403 insufficient_scope for agent and organization keys, after the guest check and before scopes', async () => {
    const served = await serveTestResources(t.deps, (plan) => {
      plan.tagged('test').read({ path: '/v1/plan/me/things/', summary: 'person only', person: true }, async (c) => ({ me: c.actor.user.uuid }));
    });
    const orgKey = (await t.seedUser(acme.org.uuid, { role: 'admin', kind: 'organization' })).key;
    const get = (key: string) => fetch(`${served.url}/v1/plan/me/things/`, { headers: { 'x-api-key': key } });
    try {
      for (const key of [acme.agentKey, orgKey]) {
        const res = await get(key);
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ detail: 'This endpoint acts for a person; agent and organization keys cannot call it.', code: 'insufficient_scope' });
      }
      expect(((await (await get(acme.guest.key)).json()) as { code: string }).code).toBe('guest_not_allowed');
      expect(await (await get(acme.member.key)).json()).toEqual({ me: acme.member.user.uuid });
    } finally {
      await served.close();
    }
  });

  it('dry runs: the whole operation runs and answers what would have happened; the database is unchanged; never stored under a key', async () => {
    const { board, states } = await createBoard(t, acme.adminKey);
    const label = await call('POST', `/v1/plan/boards/${board.uuid}/labels/`, acme.adminKey, { name: 'bug' });
    await insertTask(t, board, states.Todo);
    await insertTask(t, board, states.Todo, { labels: [label.body.uuid] });
    const before = await dumpPlanTables(t);

    const archive = await call('POST', `/v1/plan/boards/${board.uuid}/states/${states.Todo}/archive/?dry_run=true`, acme.adminKey, { migrate_to: states.Backlog }, withKey('dry-run-key-01'));
    expect(archive.status).toBe(200);
    expect(archive.body).toMatchObject({ dry_run: true, status: 200, result: { uuid: states.Todo, archived_at: '2026-03-10T15:00:00.000Z', is_default: false, moved_tasks: 2 } });
    expect(archive.body.changes.map((c: { object_kind: string; change_kind: string }) => `${c.object_kind} ${c.change_kind}`)).toEqual(['task moved', 'task moved', 'state updated', 'state archived']);

    const remove = await call('DELETE', `/v1/plan/boards/${board.uuid}/?dry_run=true`, acme.adminKey);
    expect(remove.status).toBe(200);
    expect(remove.body).toEqual({
      dry_run: true,
      status: 204,
      result: { deleted: { object_kind: 'board', uuid: board.uuid, key: 'PLAT', name: 'Platform' }, cascade: { states: 5, labels: 1, members: 1, tasks: 2 } },
      changes: [{ object_kind: 'board', object_uuid: board.uuid, change_kind: 'deleted', changed_fields: [] }],
    });
    expect(await dumpPlanTables(t)).toBe(before);

    // The key was not used up by the dry run: the real call runs.
    const real = await call('POST', `/v1/plan/boards/${board.uuid}/states/${states.Todo}/archive/`, acme.adminKey, { migrate_to: states.Backlog }, withKey('dry-run-key-01'));
    expect(real.status).toBe(200);
    expect(real.headers.get('idempotency-replayed')).toBeNull();
    expect(real.body.moved_tasks).toBe(2);

    const notDestructive = await call('POST', '/v1/plan/goals/?dry_run=true', acme.adminKey, { name: 'x' });
    expect(notDestructive.status).toBe(400);
    expect(notDestructive.body).toEqual({ detail: 'This operation has no dry run: it is not destructive.', code: 'invalid_filter_value', extra: { parameter: 'dry_run' } });
  });

  it('uses the person as the actor of personal keys and the credential for agent keys', async () => {
    const resolve = async (key: string) => {
      const r = await lookupCredential(t.db, { kind: 'api_key', hash: sha256Hex(key) }, t.clock.now());
      if (!r.ok) throw new Error('no actor');
      return r.actor;
    };
    expect(actorId(await resolve(acme.member.key))).toBe(acme.member.user.uuid);
    const agent = await resolve(acme.agentKey);
    expect(actorId(agent)).toBe(agent.credential.uuid);
  });
});
