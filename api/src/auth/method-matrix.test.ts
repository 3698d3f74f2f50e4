import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { FREE_PLAN_CLI_ALLOWED, METHOD_MATRIX, matrixRowOf } from './method-matrix.ts';

const MISSING = '0190c8f4-0000-7000-8000-000000000000';
/** Routes with a secret of their own, not a credential of the matrix: the mail provider's inbound hook. */
const OWN_SECRET = new Set(['POST /v1/inbound-email/']);
/** Routes a platform signs (Slack's request URLs): every credential of ours is as absent to them as none. */
const signed = (path: string) => matrixRowOf(path)?.signedBy !== undefined;
const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => (name === 'file' ? 'x.js' : MISSING));

/**
 * The method matrix walked against the app's routes: every route that takes a credential falls into one row of
 * the table, and answers an API key and a CLI token as that row says (403 `credential_not_accepted` for the
 * credential it refuses, anything else for the one it takes).
 */
describe('the method matrix (spec "Method matrix", auth/method-matrix.ts)', () => {
  let t: TestApp;
  let key: string;
  let token: () => Promise<string>;
  const authenticated: { method: string; path: string }[] = [];
  beforeAll(async () => {
    t = await startTestApp({ agentSelfRegistration: true, inboundEmailSecret: 'inbound-secret' });
    const acme = await t.seedOrganization({ plan: 'enterprise', beta: true });
    key = acme.adminKey;
    token = () => t.seedToken(acme.org.uuid, acme.admin.uuid);
    for (const route of t.routes) {
      if (!route.path.startsWith('/v1/') || OWN_SECRET.has(`${route.method} ${route.path}`) || signed(route.path)) continue;
      const res = await t.request(route.method, concrete(route.path), route.method === 'GET' ? {} : { body: {} });
      if (res.status === 401 && res.body?.code === 'credential_absent') authenticated.push(route);
    }
  });
  afterAll(async () => t.close());

  it('holds the spec\'s rows as the spec has them', () => {
    const spec = METHOD_MATRIX.filter((row) => row.spec).map(({ group, apiKey, cli, oauth2 }) => [group, apiKey, cli, oauth2]);
    expect(spec).toEqual([
      ['/v1/me/', true, true, true],
      ['/v1/organization/, /v1/users/, teams and members', true, true, false],
      ['/v1/templates/, /v1/checkins/', true, true, true],
      ['/v1/forms/, kudos, workflows, send-message', true, true, false],
      ['agent-reports, health, messages, email', true, true, false],
      ['/v1/cli/updates/, /v1/cli/status/, /v1/cli/chat/completions/, /v1/cli/auth/status/', true, true, false],
      ['/v1/cli/auth/logout/', false, true, false],
      ['/v1/platform/*', true, false, false],
    ]);
  });

  it('puts every route that takes a credential into a row', () => {
    expect(authenticated.length).toBeGreaterThan(50);
    expect(authenticated.filter((route) => matrixRowOf(route.path) === null).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('answers each credential on each route as its row says', async () => {
    const wrong: string[] = [];
    for (const route of authenticated) {
      const row = matrixRowOf(route.path)!;
      const path = concrete(route.path);
      for (const [kind, takes, options] of [
        ['API key', row.apiKey, { key }],
        ['CLI token', row.cli, { token: await token() }],
      ] as const) {
        const res = await t.request(route.method, path, route.method === 'GET' ? options : { ...options, body: {} });
        const refused = res.status === 403 && res.body?.code === 'credential_not_accepted';
        if (refused === takes) wrong.push(`${route.method} ${route.path} with a ${kind}: ${res.status} ${res.body?.code ?? ''} (row "${row.group}")`);
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('answers the routes a platform signs 401 with any credential of ours, as without one', async () => {
    const routes = t.routes.filter((route) => signed(route.path));
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'POST /v1/integrations/mattermost/actions/', 'POST /v1/integrations/mattermost/commands/', 'POST /v1/integrations/mattermost/dialogs/',
      'POST /v1/integrations/google-chat/events/', 'POST /v1/integrations/discord/interactions/', 'POST /v1/integrations/slack/commands/', 'POST /v1/integrations/slack/events/', 'POST /v1/integrations/slack/interactions/', 'POST /v1/integrations/teams/messages/',
    ].sort());
    for (const route of routes) {
      for (const options of [{}, { key }, { token: await token() }]) {
        const res = await t.request(route.method, route.path, { ...options, body: {} });
        expect([route.path, res.status, res.body.code]).toEqual([route.path, 401, 'credential_absent']);
      }
    }
  });

  it('lists only served operations on the free-plan allow-list', () => {
    const served = new Set(t.routes.map((r) => `${r.method} ${r.path}`));
    expect(FREE_PLAN_CLI_ALLOWED.filter((line) => !served.has(line))).toEqual([]);
  });
});
