import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { FREE_PLAN_CLI_ALLOWED } from './method-matrix.ts';

/** A body each allow-listed write takes, so the call gets past validation to what it does. */
const BODIES: Record<string, unknown> = {
  'POST /v1/agent-reports/': { agent_name: 'bot', content: 'Deployed' },
  'POST /v1/send-email/': { to: 'a@example.com', subject: 'Hello', body_html: '<p>Hi</p>' },
  'POST /v1/agent-messages/': { agent_name: 'bot', content: 'Ping' },
  'POST /v1/agent-messages/read/': { message_ids: [] },
  'PATCH /v1/agent-messages/read/': { message_ids: [] },
  'POST /v1/agent/register/': {},
  'POST /v1/agent/claim/': { claim_token: 'x'.repeat(40) },
};

/**
 * The spec's "Free-plan organizations with CLI Bearer": each allow-listed operation works for a free-plan
 * organization's CLI token; everything else answers 403 `plan_upgrade_required`. The daily caps apply to that
 * Bearer transport only, not to API keys (spec Limits).
 */
describe('free-plan organizations with a CLI token', () => {
  let t: TestApp;
  let token: string;
  let agentKey: string;
  beforeAll(async () => {
    t = await startTestApp({ agentSelfRegistration: true });
    const free = await t.seedOrganization({ name: 'Freebies', plan: 'free' });
    token = await t.seedToken(free.org.uuid, free.admin.uuid);
    agentKey = (await t.seedUser(free.org.uuid, { kind: 'agent', role: 'admin' })).key;
  });
  afterAll(async () => t.close());

  it.each(FREE_PLAN_CLI_ALLOWED.filter((line) => !line.startsWith('POST /v1/cli/auth/logout')))('allows %s', async (line) => {
    const [method, path] = line.split(' ');
    const res = await t.request(method, path, method === 'GET' ? { token } : { token, body: BODIES[line] ?? {} });
    expect(res.body?.code).not.toBe('plan_upgrade_required');
    expect(res.status).toBeLessThan(500);
    if (line === 'POST /v1/agent-reports/' || line === 'POST /v1/send-email/') expect(res.status).toBe(201);
  });

  it('allows logout, which ends the session', async () => {
    const own = await t.seedToken((await t.db('organizations').where({ name: 'Freebies' }).first())!.uuid, (await t.db('users').where({ email: 'admin@freebies.test' }).first())!.uuid);
    expect((await t.request('POST', '/v1/cli/auth/logout/', { token: own })).status).toBe(200);
    // Sign-out everywhere too, by someone else (it would end the admin's token the other tests use).
    const freebies = (await t.db('organizations').where({ name: 'Freebies' }).first())!.uuid;
    const ann = await t.seedUser(freebies, { email: 'ann@freebies.test' });
    expect((await t.request('POST', '/v1/cli/auth/logout-everywhere/', { token: await t.seedToken(freebies, ann.user.uuid) })).status).toBe(200);
  });

  it('refuses everything else with 403 plan_upgrade_required', async () => {
    for (const [method, path] of [['GET', '/v1/users/'], ['GET', '/v1/cli/updates/'], ['POST', '/v1/cli/updates/'], ['POST', '/v1/cli/chat/completions/'], ['POST', '/v1/agent-health/']]) {
      const res = await t.request(method, path, method === 'GET' ? { token } : { token, body: {} });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'This endpoint is not available on the free plan.', code: 'plan_upgrade_required' });
    }
  });

  it('caps agent reports for the CLI token, never for the API-key transport (a self-registered agent\'s key)', async () => {
    for (let i = 0; i < 55; i++) {
      expect((await t.request('POST', '/v1/agent-reports/', { key: agentKey, body: { agent_name: 'bot', content: `k${i}` } })).status).toBe(201);
    }
    // The token sent one already (above): 49 more, then the cap.
    for (let i = 0; i < 49; i++) expect((await t.request('POST', '/v1/agent-reports/', { token, body: { agent_name: 'bot', content: `t${i}` } })).status).toBe(201);
    const over = await t.request('POST', '/v1/agent-reports/', { token, body: { agent_name: 'bot', content: 'one too many' } });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('free_plan_daily_limit_exceeded');
  });
});
