import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { createBoard } from '../../test/plan-fixtures.ts';
import { SCOPE_AREAS, matrixRowOf, scopeAreaOf } from './method-matrix.ts';
import { SCOPES } from './policy.ts';

const MISSING = '0190c8f4-0000-7000-8000-000000000000';
const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => (name === 'file' ? 'x.js' : MISSING));
const DOC = new URL('../../../docs/cli.md', import.meta.url);

/** What a key with these scopes needs for a route of `area`: null when it may call it. */
function needed(scopes: string[], area: string | null): string | null | 'none' {
  if (scopes.length === 0 || area === 'any') return null;
  if (area === null) return 'none';
  const plan = ['tasks:read', 'tasks:write', 'tasks:admin'];
  if (plan.includes(area)) return scopes.some((s) => plan.indexOf(s) >= plan.indexOf(area)) ? null : area;
  return scopes.includes(area) ? null : area;
}

/**
 * Scoped keys (auth/policy.ts `scopeRefusal`, method-matrix.ts `SCOPE_AREAS`): a key with explicit scopes acts
 * only within them, in every area of the API as in the Plan. Each key of one admin (whose role allows every call
 * below) against a representative route of each area: allowed within its scopes, else 403 `insufficient_scope`
 * with `extra.required_scope`; an endpoint no scope covers takes a key without scopes.
 */
describe('Scope matrix: each scoped key against every area', () => {
  let t: TestApp;
  const keys: Record<string, string> = {};
  let checkin: string;
  let board: string;
  let mia: string;
  let boards = 0;
  const authenticated: { method: string; path: string }[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    const acme = await t.seedOrganization({ plan: 'enterprise', beta: true });
    mia = (await t.seedUser(acme.org.uuid, { email: 'mia@acme.test', firstName: 'Mia' })).user.uuid;
    keys[''] = acme.adminKey;
    for (const scopes of [['tasks:read'], ['tasks:write'], ['tasks:admin'], ['checkins'], ['kudos'], ['agents'], ['email'], ['kudos', 'agents']]) {
      const created = await t.request('POST', '/v1/api-keys/', { key: acme.adminKey, body: { name: scopes.join(' '), scopes } });
      expect(created.status).toBe(201);
      keys[scopes.join(' ')] = created.body.key;
    }
    board = (await createBoard(t, acme.adminKey)).board.uuid;
    const created = await t.request('POST', '/v1/checkins/create/', {
      key: acme.adminKey,
      body: { name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: [acme.admin.uuid] }, questions: [{ question_type: 'text', question: 'Done?' }] },
    });
    checkin = created.body.uuid;
    await t.request('POST', `/v1/checkins/${checkin}/responses/`, { key: acme.adminKey, body: { responses: [{ index: 0, response: 'First' }] } });

    for (const route of t.routes) {
      // The routes a chat platform signs take no credential of ours, scoped or not (method-matrix.ts `signedBy`).
      if (!route.path.startsWith('/v1/') || route.path === '/v1/inbound-email/' || matrixRowOf(route.path)?.signedBy) continue;
      const res = await t.request(route.method, concrete(route.path), route.method === 'GET' ? {} : { body: {} });
      if (res.status === 401 && res.body?.code === 'credential_absent') authenticated.push(route);
    }
  });
  afterAll(async () => t.close());

  const ROUTES: { name: string; area: string | null; call: () => { method: string; path: string; body?: unknown } }[] = [
    { name: 'GET /v1/me/', area: 'any', call: () => ({ method: 'GET', path: '/v1/me/' }) },
    { name: 'GET /v1/users/', area: 'any', call: () => ({ method: 'GET', path: '/v1/users/' }) },
    { name: 'GET /v1/plan/boards/', area: 'tasks:read', call: () => ({ method: 'GET', path: '/v1/plan/boards/' }) },
    { name: 'POST /v1/plan/tasks/', area: 'tasks:write', call: () => ({ method: 'POST', path: '/v1/plan/tasks/', body: { board, title: 'Scoped' } }) },
    { name: 'POST /v1/plan/boards/', area: 'tasks:admin', call: () => ({ method: 'POST', path: '/v1/plan/boards/', body: { name: 'Ops', key: `OPS${'ABCDEFGHIJ'[boards++]}` } }) },
    { name: 'GET /v1/checkins/', area: 'checkins', call: () => ({ method: 'GET', path: '/v1/checkins/' }) },
    { name: 'PUT /v1/checkins/{uuid}/responses/', area: 'checkins', call: () => ({ method: 'PUT', path: `/v1/checkins/${checkin}/responses/`, body: { responses: [{ index: 0, response: 'Again' }] } }) },
    { name: 'GET /v1/kudos/', area: 'kudos', call: () => ({ method: 'GET', path: '/v1/kudos/' }) },
    { name: 'POST /v1/kudos/', area: 'kudos', call: () => ({ method: 'POST', path: '/v1/kudos/', body: { content: 'Thanks', receivers: [mia] } }) },
    { name: 'POST /v1/agent-reports/', area: 'agents', call: () => ({ method: 'POST', path: '/v1/agent-reports/', body: { agent_name: 'Deploy Bot', content: 'Shipped' } }) },
    { name: 'GET /v1/agent-messages/', area: 'agents', call: () => ({ method: 'GET', path: '/v1/agent-messages/' }) },
    { name: 'POST /v1/send-email/', area: 'email', call: () => ({ method: 'POST', path: '/v1/send-email/', body: { to: 'mia@acme.test', subject: 'Hi', body_html: '<p>Hi</p>' } }) },
    { name: 'POST /v1/agent-email/send/', area: 'email', call: () => ({ method: 'POST', path: '/v1/agent-email/send/', body: { agent_name: 'Deploy Bot', to: ['mia@acme.test'], subject: 'Hi', body_html: '<p>Hi</p>' } }) },
    { name: 'POST /v1/teams/', area: null, call: () => ({ method: 'POST', path: '/v1/teams/', body: { name: `Team ${Math.random().toString(36).slice(2, 8)}` } }) },
    { name: 'GET /v1/forms/', area: null, call: () => ({ method: 'GET', path: '/v1/forms/' }) },
    { name: 'GET /v1/workflows/', area: null, call: () => ({ method: 'GET', path: '/v1/workflows/' }) },
  ];

  it('allows each key within its scopes and refuses it elsewhere with 403 insufficient_scope and extra.required_scope', async () => {
    const wrong: string[] = [];
    for (const route of ROUTES) {
      expect(route.area === 'any' || route.area === null || SCOPES.includes(route.area as never) ? route.name : `${route.name}: unknown scope`).toBe(route.name);
      for (const [name, key] of Object.entries(keys)) {
        const { method, path, body } = route.call();
        const res = await t.request(method, path, { key, body });
        const need = needed(name ? name.split(' ') : [], route.area);
        const label = `${route.name} with ${name || 'no scopes'}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`;
        if (need === null) {
          if (res.status >= 300) wrong.push(`${label} (expected 2xx)`);
        } else if (need === 'none') {
          if (res.status !== 403 || res.body.code !== 'insufficient_scope' || 'extra' in res.body) wrong.push(`${label} (expected 403 without a scope)`);
        } else {
          const expected = { detail: `This key's scopes do not include ${need}.`, code: 'insufficient_scope', extra: { required_scope: need } };
          if (res.status !== 403 || JSON.stringify(res.body) !== JSON.stringify(expected)) wrong.push(`${label} (expected 403 ${need})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('puts every route into an area, or among the few only a key without scopes calls', () => {
    expect(authenticated.length).toBeGreaterThan(100);
    const unscopedOnly = authenticated.filter((r) => scopeAreaOf(r.method, r.path) === null).map((r) => `${r.method} ${r.path}`).sort();
    expect(unscopedOnly).toEqual([
      'DELETE /v1/teams/:uuid/', 'DELETE /v1/teams/:uuid/member/:user_uuid/', 'DELETE /v1/webhook-subscription/', 'DELETE /v1/workflows/:uuid/',
      'DELETE /v1/forms/:uuid/archive/', 'DELETE /v1/forms/:uuid/questions/:question/delete/', 'DELETE /v1/forms/:uuid/responses/:response/',
      'GET /v1/deliveries/', 'GET /v1/deliveries/:uuid/', 'GET /v1/exchange-token/audit/', 'GET /v1/forms/', 'GET /v1/forms/:uuid/',
      'GET /v1/forms/:uuid/responses/', 'GET /v1/forms/:uuid/responses/:response/', 'GET /v1/forms/form-owners/', 'GET /v1/webhook-subscription/',
      // The chat connection's admin calls, like PATCH /v1/organization/ that makes it.
      'GET /v1/integrations/', 'GET /v1/integrations/slack/manifest/', 'POST /v1/integrations/test-prompt/',
      'GET /v1/workflows/', 'GET /v1/workflows/:uuid/', 'GET /v1/workflows/:uuid/runs/', 'GET /v1/workflows/:uuid/runs/:run/',
      'PATCH /v1/forms/:uuid/config/', 'PATCH /v1/forms/:uuid/questions/:question/', 'PATCH /v1/forms/:uuid/responses/:response/',
      'PATCH /v1/organization/', 'PATCH /v1/teams/:uuid/', 'PATCH /v1/users/:uuid/', 'PATCH /v1/workflows/:uuid/',
      'POST /v1/cli/chat/completions/', 'POST /v1/deliveries/:uuid/redeliver/', 'POST /v1/exchange-token/', 'POST /v1/forms/:uuid/questions/',
      'POST /v1/forms/:uuid/responses/', 'POST /v1/forms/:uuid/responses/:response/transition/', 'POST /v1/forms/create/', 'POST /v1/invite-user/', 'DELETE /v1/invitations/:uuid/',
      'POST /v1/open-conversation/', 'POST /v1/send-message/', 'POST /v1/teams/', 'POST /v1/teams/:uuid/member/', 'POST /v1/webhook-subscription/',
      'POST /v1/webhook-subscription/sample/', 'POST /v1/workflows/', 'POST /v1/workflows/:uuid/trigger/', 'PUT /v1/forms/:uuid/questions/reorder/',
    ].sort());
  });

  it('is documented as it is: docs/cli.md lists each area\'s paths', () => {
    const table = /<!-- scope-areas:start -->\n([\s\S]*?)\n<!-- scope-areas:end -->/.exec(fs.readFileSync(DOC, 'utf8'))?.[1];
    const rows = SCOPE_AREAS.map((area) => {
      const scope = area.scope === 'tasks' ? '`tasks:read`, `tasks:write`, `tasks:admin` (per operation: docs/plan.md)' : area.scope === 'any' ? 'every key' : `\`${area.scope}\``;
      return `| ${scope} | ${area.prefixes.map((p) => `\`${p}\``).join(', ')} | ${area.readsOnly ? 'GET only' : 'every method'} |`;
    });
    expect(table).toBe(['| Scope | Paths | Methods |', '|---|---|---|', ...rows].join('\n'));
  });
});
