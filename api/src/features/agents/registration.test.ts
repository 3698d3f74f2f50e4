import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

const solve = (instruction: string) => Number(/session is (\d+)\./.exec(instruction)![1]) * 52;

describe('Agent self-registration and claim (CONTRACT §6, §12)', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('is off unless AGENT_SELF_REGISTRATION=true', async () => {
    t = await startTestApp();
    expect((await t.request('GET', '/v1/agent/register/challenge/')).status).toBe(404);
    expect((await t.request('POST', '/v1/agent/register/', { body: {} })).status).toBe(404);
  });

  it('challenge → register → report with the agent key → claim into a person\'s organization', async () => {
    t = await startTestApp({ agentSelfRegistration: true, inboundEmailDomain: 'inbox.rollcall.test' });
    const challenge = await t.request('GET', '/v1/agent/register/challenge/');
    expect(challenge.status).toBe(200);
    expect(challenge.body.instruction).toMatch(/session is \d+\./);
    const body = { challenge_id: challenge.body.challenge_id, answer: solve(challenge.body.instruction), reason: 'Nightly builds', org_name: 'Bot Works', agent_name: 'Night Builder', timezone: 'Europe/Paris', contact_email: 'ops@example.com' };
    const wrong = await t.request('POST', '/v1/agent/register/', { body: { ...body, answer: body.answer + 1 } });
    expect(wrong.body).toMatchObject({ code: 'challenge_failed' });
    const fresh = await t.request('GET', '/v1/agent/register/challenge/');
    const reg = await t.request('POST', '/v1/agent/register/', { body: { ...body, challenge_id: fresh.body.challenge_id, answer: solve(fresh.body.instruction) } });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ agent_name: 'Night Builder', agent_email: 'night-builder.bot-works@inbox.rollcall.test', org_name: 'Bot Works' });
    expect(reg.body.api_key).toMatch(/^rk_/);
    expect(reg.body.claim_url).toContain(reg.body.claim_token);
    // Single use.
    expect((await t.request('POST', '/v1/agent/register/', { body: { ...body, challenge_id: fresh.body.challenge_id, answer: solve(fresh.body.instruction) } })).body.code).toBe('challenge_invalid');

    // The unclaimed agent key works on the free plan's allow-list only.
    const report = await t.request('POST', '/v1/agent-reports/', { key: reg.body.api_key, body: { agent_name: 'Night Builder', content: 'Built' } });
    expect(report.status).toBe(201);
    expect((await t.request('POST', '/v1/agent-health/', { key: reg.body.api_key, body: { agent_name: 'Night Builder', ok: true } })).body.code).toBe('plan_free_api_keys_forbidden');

    // The claim_url opens: a browser gets a page that says what to do, a script the same as JSON.
    const claimPath = new URL(reg.body.claim_url).pathname + new URL(reg.body.claim_url).search;
    const page = await fetch(`${t.url}${claimPath}`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('<h1>Claim the agent Night Builder</h1>');
    expect(html).toContain(`-d &#39;{&quot;claim_token&quot;:&quot;${reg.body.claim_token}&quot;}&#39;`);
    const link = await t.request('GET', claimPath);
    expect(link.status).toBe(200);
    expect(link.body).toEqual({
      agent_name: 'Night Builder',
      org_name: 'Bot Works',
      detail: expect.stringContaining('send the claim request below signed in as a person of your organization'),
      claim: { method: 'POST', url: `${new URL(reg.body.claim_url).origin}/v1/agent/claim/`, body: { claim_token: reg.body.claim_token } },
    });
    expect((await t.request('GET', '/v1/agent/claim/?claim_token=nope')).status).toBe(404);
    expect((await t.request('GET', '/v1/agent/claim/')).body).toEqual({ claim_token: ['This query parameter is required.'] });

    const acme = await t.seedOrganization();
    const claimed = await t.request('POST', '/v1/agent/claim/', { key: acme.adminKey, body: { claim_token: reg.body.claim_token } });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toEqual({ agent_name: 'Night Builder', organization: { uuid: acme.org.uuid, name: 'Acme' }, claimed_at: '2026-03-10T15:00:00.000Z' });
    expect((await t.request('POST', '/v1/agent/claim/', { key: acme.adminKey, body: { claim_token: reg.body.claim_token } })).status).toBe(404);
    expect((await t.request('GET', claimPath)).status).toBe(404);
    const reports = await t.request('GET', '/v1/agent-reports/?agent_name=Night%20Builder', { key: acme.adminKey });
    expect(reports.body.results.map((r: { content: string }) => r.content)).toEqual(['Built']);
    // The agent key now belongs to the claiming organization (pro plan): every agent endpoint works.
    expect((await t.request('POST', '/v1/agent-health/', { key: reg.body.api_key, body: { agent_name: 'Night Builder', ok: true } })).status).toBe(200);
  });

  it('an expired challenge answers a detail containing "expired"', async () => {
    t = await startTestApp({ agentSelfRegistration: true });
    const challenge = await t.request('GET', '/v1/agent/register/challenge/');
    t.clock.advance(11 * 60_000);
    const res = await t.request('POST', '/v1/agent/register/', {
      body: { challenge_id: challenge.body.challenge_id, answer: solve(challenge.body.instruction), reason: 'r', org_name: 'O', agent_name: 'a', timezone: 'UTC' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('challenge_expired');
    expect(res.body.detail).toContain('expired');
  });
});
