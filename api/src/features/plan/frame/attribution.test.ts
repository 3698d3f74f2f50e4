import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/harness.ts';
import { countRows, startPlanApp } from '../../../../test/plan-fixtures.ts';
import type { PlanCall, PlanOrg } from '../../../../test/plan-fixtures.ts';

const refusal = (detail: string) => ({ detail, code: 'invalid_agent_attribution', extra: { parameter: 'X-Service-Agent-Name' } });

describe('Agent attribution: X-Service-Agent-Name (spec invalid_agent_attribution, Limits "Agent name")', () => {
  let t: TestApp;
  let acme: PlanOrg;
  let call: PlanCall;
  let projectUuid: string;
  beforeEach(async () => {
    ({ t, acme, call } = await startPlanApp());
    projectUuid = (await call('POST', '/v1/plan/projects/', acme.member.key, { name: 'Launch' })).body.uuid;
  });
  afterEach(async () => t.close());

  const post = (agent: string, key = acme.member.key) => call('POST', `/v1/plan/projects/${projectUuid}/updates/`, key, { body: 'Shipped the beta.' }, { 'x-service-agent-name': agent });

  it('records the decoded name on the change beside the person whose credential made it, and shows it', async () => {
    const name = "Café bot (ci) #2 + Ünïcode/ops & co, v1.0: build_7 'x'";
    const res = await post(encodeURIComponent(name));
    expect(res.status).toBe(201);
    expect(res.body.agent_name).toBe(name);
    expect(res.body.author).toEqual({ uuid: acme.member.user.uuid, id: acme.member.user.uuid, full_name: 'Mia Member', name: 'Mia Member' });
    const change = await t.db('plan_changes').where({ object_uuid: res.body.uuid }).first();
    expect(change).toMatchObject({ object_kind: 'project_update', change_kind: 'created', actor_uuid: acme.member.user.uuid, credential_uuid: acme.member.keyUuid, agent_name: name });
    // Without the header the change names the person alone.
    const plain = await call('POST', `/v1/plan/projects/${projectUuid}/updates/`, acme.member.key, { body: 'By hand.' });
    expect(plain.body.agent_name).toBeNull();
    expect((await t.db('plan_changes').where({ object_uuid: plain.body.uuid }).first())!.agent_name).toBeNull();
  });

  it('takes 128 characters, counted as characters, and refuses 129: names are never truncated', async () => {
    expect((await post(encodeURIComponent('é'.repeat(128)))).status).toBe(201);
    const long = await post(encodeURIComponent('é'.repeat(129)));
    expect(long.status).toBe(400);
    expect(long.body).toEqual(refusal('The agent name must have at most 128 characters; it is never truncated.'));
  });

  it('refuses each listed case with invalid_agent_attribution, the detail saying which', async () => {
    expect((await post('bot%3Cscript%3E')).body).toEqual(refusal("The agent name may only contain letters, digits, spaces and . - _ ( ) ' # + / & , :"));
    expect((await post('%E0%A4%A')).body).toEqual(refusal('X-Service-Agent-Name is not decodable as percent-encoded UTF-8.'));
    expect((await post('%C3%28')).body).toEqual(refusal('X-Service-Agent-Name is not decodable as percent-encoded UTF-8.'));
    // Raw bytes instead of percent-encoding arrive as Latin-1 text: refused, not guessed at.
    expect((await post(Buffer.from('Café', 'utf8').toString('latin1'))).body).toEqual(refusal('X-Service-Agent-Name must be percent-encoded UTF-8 (ASCII on the wire).'));
    expect((await post('')).body).toEqual(refusal('The agent name must not be empty.'));
    expect((await post('%20%20')).body).toEqual(refusal('The agent name must contain a letter or digit.'));

    // A deactivated agent of the organization.
    await call('POST', '/v1/agent-health/', acme.adminKey, { agent_name: 'retired-bot', ok: true });
    await t.db('agents').where({ name: 'retired-bot' }).update({ is_active: false });
    expect((await post('retired-bot')).body).toEqual(refusal('The agent "retired-bot" is deactivated.'));

    // An agent key is the agent: it may not name one.
    expect((await post('helper', acme.agentKey)).body).toEqual(refusal('An agent key is the agent itself: it may not send X-Service-Agent-Name.'));
    expect((await call('POST', `/v1/plan/projects/${projectUuid}/updates/`, acme.agentKey, { body: 'From the agent key.' })).status).toBe(201);

    // Reads refuse a bad header as well; nothing was written by any refusal.
    expect((await call('GET', '/v1/plan/goals/', acme.member.key, undefined, { 'x-service-agent-name': 'bad<name' })).body.code).toBe('invalid_agent_attribution');
    expect(await countRows(t, 'plan_project_updates')).toBe(1);
  });
});
