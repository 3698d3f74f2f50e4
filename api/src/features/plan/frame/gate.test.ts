import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { seedPlanOrg, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';
import { readOnlyCommand } from '../../../admin/commands.ts';

const AUTH_DETAIL = 'Authentication credentials were not provided.';

async function scopedKey(t: TestApp, acme: PlanOrg, scopes: string[]): Promise<string> {
  const res = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: `scoped ${scopes.join(' ')}`, scopes } });
  expect(res.status).toBe(201);
  return res.body.key;
}

describe('Plan gate: every /v1/plan/ call, in order (spec "Plan credentials", "Errors"; CONTRACT §1, §3, §4)', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  beforeEach(async () => ({ t, acme, call } = await startPlanApp()));
  afterEach(async () => t.close());

  it('1. credentials: the 401 codes of the Plan catalogue, and the key plan checks answer 401 on this surface', async () => {
    const absent = await t.request('GET', '/v1/plan/boards/');
    expect(absent.status).toBe(401);
    expect(absent.body).toEqual({ detail: AUTH_DETAIL, code: 'credential_absent' });
    expect((await t.request('GET', '/v1/plan/boards/', { headers: { 'x-api-key': 'nope' } })).body.code).toBe('credential_malformed');
    expect((await call('GET', '/v1/plan/boards/', `rk_${'Q'.repeat(40)}`)).body).toEqual({ detail: AUTH_DETAIL, code: 'invalid_credentials' });

    const expiring = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { expires_at: '2026-03-10T15:00:05.000Z' } });
    t.clock.advance(10_000);
    expect((await call('GET', '/v1/plan/boards/', expiring.body.key)).body).toEqual({ detail: AUTH_DETAIL, code: 'credential_expired' });

    // The same refusals are 403 on the general surface (spec "Plan requirements for API keys").
    const inactive = await t.seedUser(acme.org.uuid);
    await t.db('users').where({ uuid: inactive.user.uuid }).update({ is_active: false });
    t.deps.credentialCache.forget();
    const owner = await call('GET', '/v1/plan/boards/', inactive.key);
    expect(owner.status).toBe(401);
    expect(owner.body.code).toBe('api_key_owner_inactive');
    expect((await call('GET', '/v1/me/', inactive.key)).status).toBe(403);

    for (const [plan, code] of [['free', 'plan_free_api_keys_forbidden'], ['basic', 'plan_missing_core_api_integrations']] as const) {
      const org = await seedPlanOrg(t, { name: `On ${plan}`, plan });
      const res = await call('GET', '/v1/plan/entitlements/', org.adminKey);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(code);
      expect((await call('GET', '/v1/me/', org.adminKey)).status).toBe(403);
    }
  });

  it('1. a free-plan CLI sign-in gets 403 plan_upgrade_required; a basic-plan one uses Plan', async () => {
    const free = await seedPlanOrg(t, { name: 'Free', plan: 'free' });
    const freeToken = await t.seedToken(free.org.uuid, free.admin.uuid);
    const refused = await t.request('GET', '/v1/plan/boards/', { token: freeToken });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_upgrade_required');

    const basic = await seedPlanOrg(t, { name: 'Basic', plan: 'basic' });
    const token = await t.seedToken(basic.org.uuid, basic.admin.uuid);
    expect((await t.request('GET', '/v1/plan/boards/', { token })).status).toBe(200);
  });

  it('2. 402 plan_upgrade_required on every route until the beta is on, before guest, person and scope checks; entitlements never 402', async () => {
    const off = await seedPlanOrg(t, { name: 'Globex', beta: false });
    const readOnlyKey = await scopedKey(t, off, ['tasks:read']);
    // A presigned upload's door takes no credential (its URL's token is the permission): it answers 404 to a made-up one.
    const planRoutes = t.routes.filter((r) => r.path.startsWith('/v1/plan/') && !(r.method !== 'GET' && r.path.endsWith('/attachments/:attachment/content/')));
    expect(planRoutes.length).toBeGreaterThan(60);
    for (const route of planRoutes) {
      const path = route.path.replace(/:(\w+)/g, '0190c8f4-0000-7000-8000-000000000000');
      const res = await call(route.method, `${path}?member=me`, readOnlyKey, route.method === 'GET' ? undefined : { bogus: true });
      if (route.path === '/v1/plan/entitlements/') {
        expect(res.status).toBe(200);
        continue;
      }
      expect(res.status, `${route.method} ${route.path}`).toBe(402);
      expect(res.body).toEqual({ detail: 'Plan is not enabled for this organization. GET /v1/plan/entitlements/ shows what it may use.', code: 'plan_upgrade_required' });
    }
    expect((await call('GET', '/v1/plan/boards/', off.guest.key)).status).toBe(402);
    expect((await call('GET', '/v1/plan/boards/?member=me', off.agentKey)).status).toBe(402);

    const entitlements = await call('GET', '/v1/plan/entitlements/', off.adminKey);
    expect(entitlements.body).toMatchObject({ plan: 'pro', enabled: false, read_only: false, reason: 'plan_upgrade_required', labels: { enabled: false }, features: { boards: false }, limits: { boards: null, projects: null } });
  });

  it('3. 403 guest_not_allowed, on entitlements too, before person and scope checks', async () => {
    for (const path of ['/v1/plan/entitlements/', '/v1/plan/boards/?member=me', '/v1/plan/goals/']) {
      const res = await call('GET', path, acme.guest.key);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Guest accounts cannot use Plan.', code: 'guest_not_allowed' });
    }
    expect((await call('POST', '/v1/plan/goals/', acme.guest.key, { name: 'x' })).body.code).toBe('guest_not_allowed');
  });

  it('4. 400 actor_required where a parameter needs a person (member=me, type=direct_message), before the scope check', async () => {
    const orgKey = (await t.seedUser(acme.org.uuid, { role: 'admin', kind: 'organization' })).key;
    for (const key of [acme.agentKey, orgKey]) {
      const res = await call('GET', '/v1/plan/boards/?member=me', key);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'member=me needs a person; agent and organization keys act for no one.', code: 'actor_required', extra: { parameter: 'member' } });
      expect((await call('GET', '/v1/plan/channels/?type=direct_message', key)).body).toEqual({
        detail: 'type=direct_message needs a person; agent and organization keys act for no one.', code: 'actor_required', extra: { parameter: 'type' },
      });
      // type=channel is the DailyBot client's name for public channels (CONTRACT §9): no person needed, so the
      // next refusal is that no chat platform is connected.
      expect((await call('GET', '/v1/plan/channels/?type=channel', key)).body.code).toBe('platform_not_connected');
      expect((await call('GET', `/v1/plan/boards/?member=${acme.member.user.uuid}`, key)).status).toBe(200);
    }
    // A person's key with member=me works, with the same scopes.
    expect((await call('GET', '/v1/plan/boards/?member=me', acme.member.key)).status).toBe(200);
  });

  it('5. 403 insufficient_scope from a key\'s explicit scopes: tasks:read reads, tasks:write writes, tasks:admin boards, states, members, deletes', async () => {
    const read = await scopedKey(t, acme, ['tasks:read']);
    const write = await scopedKey(t, acme, ['tasks:write']);
    const admin = await scopedKey(t, acme, ['tasks:admin']);
    const refused = { detail: "This key's scopes do not include tasks:write.", code: 'insufficient_scope', extra: { required_scope: 'tasks:write' } };

    expect((await call('GET', '/v1/plan/goals/', read)).status).toBe(200);
    const writeRefused = await call('POST', '/v1/plan/tasks/', read, { title: 'Grow' });
    expect(writeRefused.status).toBe(403);
    expect(writeRefused.body).toEqual(refused);

    // Goals, like boards, projects, states and memberships, are structure: tasks:admin.
    expect((await call('POST', '/v1/plan/goals/', write, { name: 'Grow' })).body).toEqual({ detail: "This key's scopes do not include tasks:admin.", code: 'insufficient_scope', extra: { required_scope: 'tasks:admin' } });
    expect((await call('POST', '/v1/plan/tasks/', write, { title: 'Grow' })).status).toBe(400);
    const goal = await call('POST', '/v1/plan/goals/', admin, { name: 'Grow' });
    expect(goal.status).toBe(201);
    expect((await call('POST', '/v1/plan/boards/', write, { name: 'B', key: 'BB' })).body).toEqual({ detail: "This key's scopes do not include tasks:admin.", code: 'insufficient_scope', extra: { required_scope: 'tasks:admin' } });
    expect((await call('DELETE', `/v1/plan/goals/${goal.body.uuid}/`, write)).body.code).toBe('insufficient_scope');

    const board = await call('POST', '/v1/plan/boards/', admin, { name: 'B', key: 'BB' });
    expect(board.status).toBe(201);
    expect((await call('POST', `/v1/plan/boards/${board.body.uuid}/states/`, write, { name: 'Review', category: 'in_progress' })).body.code).toBe('insufficient_scope');
    expect((await call('POST', `/v1/plan/boards/${board.body.uuid}/members/`, write, { user: acme.member.user.uuid })).body.code).toBe('insufficient_scope');
    expect((await call('POST', `/v1/plan/boards/${board.body.uuid}/states/`, admin, { name: 'Review', category: 'in_progress' })).status).toBe(201);
    expect((await call('DELETE', `/v1/plan/goals/${goal.body.uuid}/`, admin)).status).toBe(204);
    // A key without explicit scopes (and a CLI session) may call everything its owner may.
    expect((await call('DELETE', `/v1/plan/boards/${board.body.uuid}/`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', '/v1/plan/entitlements/', write)).body.credential).toEqual({ scopes: ['tasks:read', 'tasks:write'], acts_as_person: true });
  });

  it('6. 503 feature_temporarily_read_only for writes while the switch is on; reads continue; a running server sees it within seconds', async () => {
    expect((await call('POST', '/v1/plan/goals/', acme.adminKey, { name: 'Before' })).status).toBe(201);
    await readOnlyCommand(t.db, t.clock, 'on');
    t.clock.advance(2_000);
    const refused = await call('POST', '/v1/plan/goals/', acme.adminKey, { name: 'During' });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ detail: 'Plan is read-only during an incident; reads continue. Retry the write later.', code: 'feature_temporarily_read_only' });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await call('GET', '/v1/plan/goals/', acme.adminKey)).body.count).toBe(1);
    expect((await call('GET', '/v1/plan/entitlements/', acme.adminKey)).body.read_only).toBe(true);
    // Read-only comes after the scope check, before the ceiling.
    const read = await scopedKey(t, acme, ['tasks:read']);
    expect((await call('POST', '/v1/plan/goals/', read, { name: 'x' })).body.code).toBe('insufficient_scope');

    await readOnlyCommand(t.db, t.clock, 'off');
    t.clock.advance(2_000);
    expect((await call('POST', '/v1/plan/goals/', acme.adminKey, { name: 'After' })).status).toBe(201);
  });

  it('7. minute ceilings per actor: 120 reads, 60 writes; 429 throttled with extra.retry_after, Retry-After and RateLimit headers', async () => {
    t.clock.set('2026-03-10T15:01:00.000Z');
    for (let i = 0; i < 60; i++) {
      const res = await call('POST', '/v1/plan/goals/', acme.member.key, { name: `Goal ${i}` });
      expect(res.status).toBe(201);
      if (i === 0) {
        expect(res.headers.get('ratelimit-policy')).toBe('"plan-writes";q=60;w=60');
        expect(res.headers.get('ratelimit')).toBe('"plan-writes";r=59;t=60');
      }
    }
    t.clock.advance(20_000);
    const throttled = await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'One too many' });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({ detail: 'Request was throttled. Expected available in 40 seconds.', code: 'throttled', extra: { retry_after: 40 } });
    expect(throttled.headers.get('retry-after')).toBe('40');
    // The person's CLI session shares the budget; another person and an agent key have their own.
    const token = await t.seedToken(acme.org.uuid, acme.member.user.uuid);
    expect((await t.request('POST', '/v1/plan/goals/', { token, body: { name: 'Via CLI' } })).status).toBe(429);
    expect((await call('POST', '/v1/plan/goals/', acme.other.key, { name: 'Otto goal' })).status).toBe(201);
    expect((await call('POST', '/v1/plan/tasks/', acme.agentKey, { title: 'Agent task' })).status).toBe(400);
    // Reads count separately.
    for (let i = 0; i < 120; i++) expect((await call('GET', '/v1/plan/goals/', acme.member.key)).status).toBe(200);
    const readThrottled = await call('GET', '/v1/plan/goals/', acme.member.key);
    expect(readThrottled.status).toBe(429);
    expect(readThrottled.headers.get('ratelimit')).toBe('"plan-reads";r=0;t=40');
    t.clock.advance(40_000);
    expect((await call('POST', '/v1/plan/goals/', acme.member.key, { name: 'Next minute' })).status).toBe(201);
  });

  it('counts a refused request against nothing: the gate refuses before the ceiling', async () => {
    const read = await scopedKey(t, acme, ['tasks:read']);
    for (let i = 0; i < 70; i++) expect((await call('POST', '/v1/plan/goals/', read, { name: `g${i}` })).status).toBe(403);
    expect((await call('GET', '/v1/plan/goals/', read)).headers.get('ratelimit')).toBe('"plan-reads";r=119;t=60');
  });

  it('entitlements: what the organization may use, its ceilings and usage, and what this credential may do', async () => {
    await call('POST', '/v1/plan/boards/', acme.adminKey, { name: 'Platform', key: 'PLAT' });
    const res = await call('GET', '/v1/plan/entitlements/', acme.adminKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      plan: 'pro',
      enabled: true,
      read_only: false,
      reason: null,
      boards: { used: 1, limit: null },
      labels: { enabled: true },
      features: { projects: true, goals: true, boards: true, tasks: true },
      limits: {
        boards: null, projects: null, bulk_items: 100, favorites: 50, personal_views_per_board: 20, notification_routes: 10, report_schedules: 10,
        tasks_per_column: 5000, attachment_bytes_presigned: 26_214_400, attachment_bytes_multipart: 5_242_880, attachments_per_object: 50,
      },
      usage: { boards: 1, projects: 0 },
      rate_limits: { reads_per_minute: 120, writes_per_minute: 60, bulk_per_minute: 30, delta_per_minute: 240 },
      credential: { scopes: ['tasks:read', 'tasks:write', 'tasks:admin'], acts_as_person: true },
    });
    expect((await call('GET', '/v1/plan/entitlements/', acme.agentKey)).body.credential.acts_as_person).toBe(false);
  });

  it('a path id that is not a uuid names nothing (404), after the gate', async () => {
    const res = await call('GET', '/v1/plan/boards/not-a-uuid/', acme.adminKey);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await call('GET', '/v1/plan/boards/not-a-uuid/', acme.guest.key)).status).toBe(403);
  });
});
