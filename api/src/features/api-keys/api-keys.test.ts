import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { tableNames } from '../../../test/database.ts';
import fc from 'fast-check';
import { parseDateTime } from '../../lib/dates.ts';

const KEY_FORMAT = /^rk_[0-9A-Za-z]{40}$/;

describe('API keys (spec "API key", "Secret lifecycle", "Roles"; CONTRACT §4)', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<TestApp['seedOrganization']>>;
  let member: Awaited<ReturnType<TestApp['seedUser']>>;
  beforeEach(async () => {
    t = await startTestApp();
    acme = await t.seedOrganization();
    member = await t.seedUser(acme.org.uuid, { email: 'mia@acme.test' });
  });
  afterEach(async () => t.close());

  it('shows the secret once on create (201), then only key_suffix and the masked key', async () => {
    const created = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: 'deploy bot' } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(KEY_FORMAT);
    const suffix = created.body.key.slice(-4);
    expect(created.body).toMatchObject({
      name: 'deploy bot',
      kind: 'personal',
      is_agent_key: false,
      key_suffix: suffix,
      masked_key: `••••••••${suffix}`,
      owner: { uuid: acme.admin.uuid, full_name: 'Ada Admin' },
      created_by: { uuid: acme.admin.uuid, full_name: 'Ada Admin' },
      scopes: [],
      last_used_at: null,
    });
    expect(created.body.id).toBe(created.body.uuid);

    const detail = await t.request('GET', `/v1/api-keys/${created.body.uuid}/`, { key: acme.adminKey });
    expect(detail.status).toBe(200);
    expect(detail.body).not.toHaveProperty('key');
    expect(detail.body.masked_key).toBe(`••••••••${suffix}`);
    const list = await t.request('GET', '/v1/api-keys/', { key: acme.adminKey });
    expect(list.body.results.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);

    const renamed = await t.request('PATCH', `/v1/api-keys/${created.body.uuid}/`, { key: acme.adminKey, body: { name: 'ci' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).not.toHaveProperty('key');
    expect(renamed.body.name).toBe('ci');

    // The new key works, and records when it was used.
    expect((await t.request('GET', '/v1/me/', { key: created.body.key })).status).toBe(200);
    expect((await t.request('GET', `/v1/api-keys/${created.body.uuid}/`, { key: acme.adminKey })).body.last_used_at).toBe('2026-03-10T15:00:00.000Z');
  });

  it('takes expires_at only as a date-time that exists, in UTC or with an offset, and answers it in UTC', async () => {
    const message = 'Must be a date-time as YYYY-MM-DDTHH:MM:SSZ (or with an offset, such as +02:00).';
    for (const expires_at of ['2026-13-01T00:00:00Z', '9999-12-31T99:99:99Z', '2026-02-30T00:00:00Z', '2027-02-29T00:00:00Z', '2026-06-01', 'soon']) {
      const res = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: 'x', expires_at } });
      expect([expires_at, res.status, res.body]).toEqual([expires_at, 400, { expires_at: [message] }]);
    }
    const leap = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: 'leap', expires_at: '2028-02-29T23:30:00.25-01:00' } });
    expect(leap.status).toBe(201);
    expect(leap.body.expires_at).toBe('2028-03-01T00:30:00.250Z');
    const list = await t.request('GET', '/v1/api-keys/', { key: acme.adminKey });
    expect(list.status).toBe(200);
    expect(list.body.results.find((k: { uuid: string }) => k.uuid === leap.body.uuid).expires_at).toBe('2028-03-01T00:30:00.250Z');
  });

  it('refuses an expires_at that is not in the future (400 naming the field)', async () => {
    for (const expires_at of ['2026-03-10T15:00:00Z', '2026-03-10T14:59:59.999Z', '2020-01-01T00:00:00Z', '2026-03-10T16:00:00+01:00']) {
      const res = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: 'late', expires_at } });
      expect([expires_at, res.status, res.body]).toEqual([expires_at, 400, { expires_at: ['Must be in the future.'] }]);
    }
    expect((await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: 'soon', expires_at: '2026-03-10T15:00:01Z' } })).status).toBe(201);
    expect((await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: 'never', expires_at: null } })).status).toBe(201);
  });

  it('answers any expires_at with 201 and the instant it names, or with 400 naming the field (property)', async () => {
    const candidates = fc.oneof(
      fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.stringMatching(/^\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-6]\d:[0-6]\d(\.\d{1,6})?(Z|[+-][0-2]\d:[0-6]\d)$/),
      fc.string({ maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(candidates, async (expires_at) => {
        const res = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: 'p', expires_at } });
        const instant = parseDateTime(expires_at);
        if (instant && instant > t.clock.now()) expect([expires_at, res.status, res.body.expires_at]).toEqual([expires_at, 201, instant.toISOString()]);
        else if (instant) expect([expires_at, res.status, res.body]).toEqual([expires_at, 400, { expires_at: ['Must be in the future.'] }]);
        else expect([expires_at, res.status, Object.keys(res.body)]).toEqual([expires_at, 400, ['expires_at']]);
      }),
      { seed: 4, numRuns: 60 },
    );
  });

  it('lists keys when a stored expiry cannot be read: null for that key, logged once, never a 500', async () => {
    const created = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: 'legacy' } });
    // As a release that checked dates loosely could have stored it.
    await t.db('api_keys').where({ uuid: created.body.uuid }).update({ expires_at: '2026-13-01T00:00:00Z' });
    for (let i = 0; i < 2; i++) {
      const list = await t.request('GET', '/v1/api-keys/', { key: acme.adminKey });
      expect(list.status).toBe(200);
      expect(list.body.results.find((k: { uuid: string }) => k.uuid === created.body.uuid).expires_at).toBeNull();
    }
    expect((await t.request('GET', `/v1/api-keys/${created.body.uuid}/`, { key: member.key })).body.expires_at).toBeNull();
    const warnings = t.logs.filter((line) => line.includes('not a readable date-time'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 40, value: '2026-13-01T00:00:00Z' });
  });

  it('regenerates with PATCH regenerate: true (200, new secret); the old secret stops at once', async () => {
    const created = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: 'laptop' } });
    expect((await t.request('GET', '/v1/me/', { key: created.body.key })).status).toBe(200);
    const regenerated = await t.request('PATCH', `/v1/api-keys/${created.body.uuid}/`, { key: member.key, body: { regenerate: true } });
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.key).toMatch(KEY_FORMAT);
    expect(regenerated.body.key).not.toBe(created.body.key);
    expect(regenerated.body.key_suffix).toBe(regenerated.body.key.slice(-4));
    expect((await t.request('GET', '/v1/me/', { key: created.body.key })).body.code).toBe('invalid_credentials');
    expect((await t.request('GET', '/v1/me/', { key: regenerated.body.key })).status).toBe(200);
  });

  it('revokes with DELETE (204): the key stops working at once', async () => {
    const created = await t.request('POST', '/v1/api-keys/', { key: member.key, body: {} });
    expect((await t.request('GET', '/v1/me/', { key: created.body.key })).status).toBe(200);
    const deleted = await t.request('DELETE', `/v1/api-keys/${created.body.uuid}/`, { key: member.key });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const after = await t.request('GET', '/v1/me/', { key: created.body.key });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('invalid_credentials');
  });

  it('lets admins list every key of the organization and members only their own', async () => {
    const other = await t.seedUser(acme.org.uuid);
    const adminList = await t.request('GET', '/v1/api-keys/', { key: acme.adminKey });
    expect(adminList.body.count).toBe(3);
    const memberList = await t.request('GET', '/v1/api-keys/', { key: member.key });
    expect(memberList.body.count).toBe(1);
    expect(memberList.body.results[0].owner.uuid).toBe(member.user.uuid);
    expect(memberList.body.results.map((k: { uuid: string }) => k.uuid)).not.toContain(other.keyUuid);
  });

  it('lets admins create agent keys and keys for another user', async () => {
    const agent = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: 'agent', is_agent_key: true } });
    expect(agent.status).toBe(201);
    expect(agent.body).toMatchObject({ kind: 'agent', is_agent_key: true });
    const forMember = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { for_user_id: member.user.uuid, scopes: ['tasks:read'] } });
    expect(forMember.status).toBe(201);
    expect(forMember.body.owner).toEqual({ uuid: member.user.uuid, full_name: 'Mia Member' });
    expect(forMember.body.created_by.uuid).toBe(acme.admin.uuid);
    expect(forMember.body.scopes).toEqual(['tasks:read']);
    const me = await t.request('GET', '/v1/me/', { key: forMember.body.key });
    expect(me.body.uuid).toBe(member.user.uuid);
  });

  it('refuses members an agent key (400 agent_key_admin_only) and a key for someone else (403 org_admin_required)', async () => {
    const agent = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { is_agent_key: true } });
    expect(agent.status).toBe(400);
    expect(agent.body).toEqual({ detail: 'Only organization admins can create agent keys.', code: 'agent_key_admin_only' });
    const forOther = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { for_user_id: acme.admin.uuid } });
    expect(forOther.status).toBe(403);
    expect(forOther.body).toEqual({ detail: 'Only organization admins can create keys for another user.', code: 'org_admin_required' });
    const own = await t.request('POST', '/v1/api-keys/', { key: member.key, body: { for_user_id: member.user.uuid } });
    expect(own.status).toBe(201);
  });

  it('answers 404 to a member touching another user\'s key, with the same body as a missing key', async () => {
    const missing = await t.request('PATCH', '/v1/api-keys/0190c8f4-0000-7000-8000-000000000000/', { key: member.key, body: { regenerate: true } });
    expect(missing.status).toBe(404);
    for (const [method, body] of [['GET', undefined], ['PATCH', { regenerate: true }], ['DELETE', undefined]] as const) {
      const res = await t.request(method, `/v1/api-keys/${acme.adminKeyUuid}/`, { key: member.key, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    expect((await t.request('GET', '/v1/me/', { key: acme.adminKey })).status).toBe(200);
  });

  it('never shows one organization another organization\'s keys (404, same body as absent)', async () => {
    const globex = await t.seedOrganization({ name: 'Globex' });
    const missing = await t.request('GET', '/v1/api-keys/0190c8f4-0000-7000-8000-000000000000/', { key: globex.adminKey });
    for (const [method, body] of [['GET', undefined], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
      const res = await t.request(method, `/v1/api-keys/${acme.adminKeyUuid}/`, { key: globex.adminKey, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    const list = await t.request('GET', '/v1/api-keys/', { key: globex.adminKey });
    expect(list.body.count).toBe(1);
    const forForeignUser = await t.request('POST', '/v1/api-keys/', { key: globex.adminKey, body: { for_user_id: member.user.uuid } });
    expect(forForeignUser.status).toBe(400);
    expect(forForeignUser.body).toEqual({ for_user_id: ['No user with this id in your organization.'] });
  });

  it('keeps agent and organization keys from managing keys', async () => {
    const agent = await t.seedUser(acme.org.uuid, { kind: 'agent', role: 'admin' });
    const res = await t.request('POST', '/v1/api-keys/', { key: agent.key, body: {} });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
  });

  it('never lets a key grant more than it holds: a scoped key creates no key, widens no scopes, regenerates no wider key (403 insufficient_scope)', async () => {
    await t.db('organizations').where({ uuid: acme.org.uuid }).update({ plan_beta_enabled: true });
    const make = async (scopes: string[]) => (await t.request('POST', '/v1/api-keys/', { key: member.key, body: { name: scopes.join(' ') || 'full', scopes } })).body;
    const reader = await make(['tasks:read']);
    const writer = await make(['tasks:write']);
    const full = await make([]);
    const refused = { code: 'insufficient_scope', detail: expect.any(String) };
    const board = { name: 'Ops', key: 'OPS' };

    // The attack: lift its own scope, then write to the Plan; or mint an unscoped key.
    for (const scopes of [['tasks:admin'], ['tasks:write'], []]) {
      const lifted = await t.request('PATCH', `/v1/api-keys/${reader.uuid}/`, { key: reader.key, body: { scopes } });
      expect([scopes, lifted.status, lifted.body]).toEqual([scopes, 403, refused]);
    }
    const minted = await t.request('POST', '/v1/api-keys/', { key: reader.key, body: { name: 'escape' } });
    expect([minted.status, minted.body]).toEqual([403, refused]);
    const narrowMint = await t.request('POST', '/v1/api-keys/', { key: writer.key, body: { name: 'narrow', scopes: ['tasks:read'] } });
    expect([narrowMint.status, narrowMint.body]).toEqual([403, refused]);
    expect((await t.request('POST', '/v1/plan/boards/', { key: reader.key, body: board })).body.code).toBe('insufficient_scope');
    expect((await t.request('GET', `/v1/api-keys/${reader.uuid}/`, { key: member.key })).body.scopes).toEqual(['tasks:read']);

    // Nor through a sibling key: widening it, or taking a new secret of a key that holds more.
    const widened = await t.request('PATCH', `/v1/api-keys/${reader.uuid}/`, { key: writer.key, body: { scopes: ['tasks:admin'] } });
    expect([widened.status, widened.body]).toEqual([403, refused]);
    const stolen = await t.request('PATCH', `/v1/api-keys/${full.uuid}/`, { key: writer.key, body: { regenerate: true } });
    expect([stolen.status, stolen.body]).toEqual([403, refused]);
    const removed = await t.request('DELETE', `/v1/api-keys/${full.uuid}/`, { key: writer.key });
    expect([removed.status, removed.body]).toEqual([403, refused]);
    expect((await t.request('GET', '/v1/me/', { key: full.key })).status).toBe(200);

    // What it holds, it may hand on or give up: narrow itself or a sibling, rename, regenerate or delete a key it covers.
    expect((await t.request('PATCH', `/v1/api-keys/${writer.uuid}/`, { key: writer.key, body: { name: 'renamed' } })).status).toBe(200);
    const regenerated = await t.request('PATCH', `/v1/api-keys/${reader.uuid}/`, { key: writer.key, body: { regenerate: true } });
    expect([regenerated.status, regenerated.body.scopes]).toEqual([200, ['tasks:read']]);
    expect((await t.request('PATCH', `/v1/api-keys/${full.uuid}/`, { key: writer.key, body: { scopes: ['tasks:read'] } })).body.scopes).toEqual(['tasks:read']);
    const narrowed = await t.request('PATCH', `/v1/api-keys/${writer.uuid}/`, { key: writer.key, body: { scopes: ['tasks:read'] } });
    expect([narrowed.status, narrowed.body.scopes]).toEqual([200, ['tasks:read']]);
    expect((await t.request('POST', '/v1/plan/boards/', { key: writer.key, body: board })).body.code).toBe('insufficient_scope');
    expect((await t.request('DELETE', `/v1/api-keys/${full.uuid}/`, { key: writer.key })).status).toBe(204);

    // The person's unscoped credentials still manage every scope.
    expect((await t.request('PATCH', `/v1/api-keys/${writer.uuid}/`, { key: member.key, body: { scopes: ['tasks:admin'] } })).body.scopes).toEqual(['tasks:admin']);
    const token = await t.seedToken(acme.org.uuid, member.user.uuid);
    expect((await t.request('POST', '/v1/api-keys/', { token, body: { name: 'from the CLI', scopes: ['tasks:write'] } })).status).toBe(201);
  });

  it('stores only a hash: no plain secret in any table or any log line', async () => {
    const created = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: 'secret check' } });
    const regenerated = await t.request('PATCH', `/v1/api-keys/${created.body.uuid}/`, { key: acme.adminKey, body: { regenerate: true } });
    await t.request('GET', '/v1/me/', { key: regenerated.body.key });
    await t.request('GET', '/v1/me/', { key: `rk_${'Z'.repeat(40)}` });
    const secrets = [acme.adminKey, member.key, created.body.key, regenerated.body.key];

    let dump = '';
    for (const name of await tableNames(t.db)) dump += JSON.stringify(await t.db(name).select());
    expect(dump.length).toBeGreaterThan(1000);
    for (const secret of secrets) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice(3)); // not even without its prefix
    }
    const logs = t.logs.join('');
    expect(logs).toContain('"path":"/v1/api-keys/"');
    for (const secret of secrets) expect(logs).not.toContain(secret.slice(3, 20));
  });
});
