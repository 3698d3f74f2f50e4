import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { seedPeople } from '../../test/people-fixtures.ts';
import type { People } from '../../test/people-fixtures.ts';
import { setExchangeCommand } from '../admin/commands.ts';
import { issueKey } from '../features/api-keys/service.ts';
import { SCOPES } from './policy.ts';

type Credential = 'personal' | 'cli' | 'scoped' | 'agent' | 'organization';
const CREDENTIALS: Credential[] = ['personal', 'cli', 'scoped', 'agent', 'organization'];
const REFUSED = 403;

/**
 * What each credential of one admin may do to the organization (auth/policy.ts: the GOVERNS rules). The role
 * allows every call below; the credential decides. A personal key without scopes and a CLI token govern; a key
 * with explicit scopes (here every scope there is), an agent key and an organization key answer 403
 * `insufficient_scope`, and keep everything that does not govern (the last rows), except that a scoped key acts
 * only within its scopes: no scope covers a team's changes or another profile (auth/scope-matrix.test.ts).
 */
describe('Credential matrix: who governs the organization', () => {
  let t: TestApp;
  let p: People;
  const secrets = {} as Record<Credential, { key?: string; token?: string }>;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ allowPrivateWebhooks: true });
    p = await seedPeople(t);
    await setExchangeCommand(t.db, t.clock, p.org.uuid, 'on');
    const now = t.clock.now();
    const issue = async (kind: 'agent' | 'organization') => (await issueKey(t.db, { organizationUuid: p.org.uuid, ownerUuid: p.admin.uuid, kind, name: kind }, now)).secret;
    secrets.personal = { key: p.adminKey };
    secrets.cli = { token: await t.seedToken(p.org.uuid, p.admin.uuid) };
    secrets.scoped = { key: (await t.request('POST', '/v1/api-keys/', { key: p.adminKey, body: { name: 'scoped', scopes: [...SCOPES].filter((scope) => scope !== 'tasks:read' && scope !== 'tasks:write') } })).body.key };
    secrets.agent = { key: await issue('agent') };
    secrets.organization = { key: await issue('organization') };
  });
  afterAll(async () => t.close());

  const unique = () => `${++n}`;
  const cases: { name: string; expect: [number, number, number, number, number]; call: () => { method: string; path: string; body?: unknown; headers?: Record<string, string> } | Promise<{ method: string; path: string; body?: unknown; headers?: Record<string, string> }> }[] = [
    { name: 'PATCH /v1/organization/ (rename)', expect: [200, 200, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'PATCH', path: '/v1/organization/', body: { name: 'Acme' } }) },
    { name: 'POST /v1/invite-user/ (an admin)', expect: [201, 201, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'POST', path: '/v1/invite-user/', body: { email: `boss${unique()}@acme.test`, role: 'admin' } }) },
    { name: 'POST /v1/invite-user/ (a member)', expect: [201, 201, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'POST', path: '/v1/invite-user/', body: { email: `new${unique()}@acme.test` } }) },
    { name: 'PATCH /v1/users/{other}/ (promote)', expect: [200, 200, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'PATCH', path: `/v1/users/${p.other.user.uuid}/`, body: { role: 'member' } }) },
    { name: 'PATCH /v1/users/{other}/ (profile)', expect: [200, 200, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'PATCH', path: `/v1/users/${p.other.user.uuid}/`, body: { occupation: 'x' } }) },
    { name: 'PATCH /v1/users/{self}/ (own profile)', expect: [200, 200, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'PATCH', path: `/v1/users/${p.admin.uuid}/`, body: { occupation: 'x' } }) },
    { name: 'POST /v1/api-keys/', expect: [201, 201, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'POST', path: '/v1/api-keys/', body: { name: 'k' } }) },
    { name: 'GET /v1/webhook-subscription/', expect: [200, 200, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'GET', path: '/v1/webhook-subscription/' }) },
    { name: 'POST /v1/webhook-subscription/', expect: [201, 201, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'POST', path: '/v1/webhook-subscription/', body: { hook_url: 'https://127.0.0.1:9/hook', subscriptions: ['kudos.posted'] } }) },
    { name: 'GET /v1/deliveries/', expect: [200, 200, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'GET', path: '/v1/deliveries/' }) },
    {
      name: 'POST /v1/workflows/', expect: [201, 201, REFUSED, REFUSED, REFUSED],
      call: () => ({ method: 'POST', path: '/v1/workflows/', body: { name: `W${unique()}`, trigger_type: 'api_trigger', actions: [{ type: 'http_request', url: 'https://127.0.0.1:9/hook' }] } }),
    },
    { name: 'POST /v1/company-values/', expect: [201, 201, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'POST', path: '/v1/company-values/', body: { value: `Value ${unique()}` } }) },
    { name: 'PATCH /v1/kudos/settings/', expect: [200, 200, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'PATCH', path: '/v1/kudos/settings/', body: { daily_limit: 11 } }) },
    { name: 'POST /v1/exchange-token/', expect: [201, 201, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'POST', path: '/v1/exchange-token/', body: { user_uuid: p.member.user.uuid } }) },
    { name: 'GET /v1/exchange-token/audit/', expect: [200, 200, REFUSED, REFUSED, REFUSED], call: () => ({ method: 'GET', path: '/v1/exchange-token/audit/' }) },
    {
      name: 'POST /v1/kudos/ with X-Exchange-Token', expect: [201, 201, REFUSED, REFUSED, REFUSED],
      call: async () => {
        const { token } = (await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: p.member.user.uuid } })).body;
        return { method: 'POST', path: '/v1/kudos/', headers: { 'x-exchange-token': token }, body: { content: 'Thanks', receivers: [p.other.user.uuid] } };
      },
    },
    // What does not govern stays open to every credential the role allows.
    { name: 'POST /v1/teams/', expect: [201, 201, REFUSED, 201, 201], call: () => ({ method: 'POST', path: '/v1/teams/', body: { name: `Team ${unique()}` } }) },
    { name: 'POST /v1/checkins/create/', expect: [201, 201, 201, 201, 201], call: () => ({ method: 'POST', path: '/v1/checkins/create/', body: { name: `Daily ${unique()}` } }) },
    { name: 'GET /v1/users/', expect: [200, 200, 200, 200, 200], call: () => ({ method: 'GET', path: '/v1/users/' }) },
  ];

  it('answers each credential of an admin as auth/policy.ts says, on every call that governs', async () => {
    const table: string[] = [];
    let ok = true;
    for (const c of cases) {
      const got: number[] = [];
      for (const credential of CREDENTIALS) {
        const { method, path, body, headers } = await c.call();
        const res = await t.request(method, path, { ...secrets[credential], body, headers });
        got.push(res.status);
        if (res.status === REFUSED && res.body.code !== 'insufficient_scope') table.push(`${c.name} ${credential}: code ${res.body.code}`);
      }
      if (got.join() !== c.expect.join() || table.some((line) => line.startsWith(`${c.name} `))) ok = false;
      table.push(`${c.name.padEnd(42)} expected ${c.expect.join(' ')}  got ${got.join(' ')}`);
    }
    expect(ok, `personal cli scoped agent organization\n${table.join('\n')}`).toBe(true);
  });
});
