import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { setExchangeCommand } from '../../admin/commands.ts';
import { pruneExchangeTokens } from '../../auth/exchange-tokens.ts';

const DETAIL = 'Authentication credentials were not provided.';

describe('exchange tokens (spec "Exchange token", CONTRACT §4)', () => {
  let t: TestApp;
  let p: People;
  let checkin: { uuid: string };
  let questions: { uuid: string }[];
  /** As `rollcall admin org exchange` would, from outside the server: a running one sees it after its cache. */
  const exchange = async (value: 'on' | 'off') => {
    await setExchangeCommand(t.db, t.clock, p.org.uuid, value);
    t.deps.credentialCache.forget();
  };
  const answer = (headers: Record<string, string>, key = p.adminKey) =>
    t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key, headers, body: { responses: questions.map((q) => ({ uuid: q.uuid, response: 'Done by proxy' })) } });

  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    checkin = (
      await t.request('POST', '/v1/checkins/create/', {
        key: p.adminKey,
        body: { name: 'Daily', schedule: { days: [0, 1, 2, 3, 4, 5, 6], timezone: 'UTC' }, participants: { user_uuids: [p.member.user.uuid] } },
      })
    ).body;
    questions = (await t.request('GET', `/v1/checkins/${checkin.uuid}/detail/`, { key: p.adminKey })).body.questions;
  });
  afterEach(async () => t.close());

  it('is off until an operator turns it on', async () => {
    const off = await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: p.member.user.uuid } });
    expect(off.status).toBe(403);
    expect(off.body).toEqual({ detail: 'Exchange tokens are off for this organization; an operator turns them on.', code: 'exchange_tokens_disabled' });
    await exchange('on');
    const issued = await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: p.member.user.uuid } });
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({
      token: expect.stringMatching(/^rxt_[0-9A-Za-z]{48}$/),
      expires_in: 300,
      expires_at: '2026-03-10T15:05:00.000Z',
      user: { uuid: p.member.user.uuid, full_name: 'Mia Member' },
    });
    expect(JSON.stringify(await t.db('exchange_tokens'))).not.toContain(issued.body.token);
    // Turned off again, a token already issued stops working.
    await exchange('off');
    const refused = await answer({ 'x-exchange-token': issued.body.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('exchange_tokens_disabled');
  });

  it('makes an admin\'s check-in answer the member\'s, audited with both, for 300 seconds', async () => {
    await exchange('on');
    const { token } = (await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: p.member.user.uuid } })).body;
    // Without the token the admin answers as themselves (and takes no part in this check-in).
    expect((await answer({})).body.code).toBe('not_a_participant');
    const asMember = await answer({ 'x-exchange-token': token });
    expect(asMember.status).toBe(201);
    const history = await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key });
    expect(history.body.results).toHaveLength(1);
    expect(history.body.results[0].user).toMatchObject({ uuid: p.member.user.uuid });
    // Editing and resetting act as the member too.
    const edited = await t.request('PUT', `/v1/checkins/${checkin.uuid}/responses/`, {
      key: p.adminKey, headers: { 'x-exchange-token': token }, body: { responses: [{ uuid: questions[0].uuid, response: 'Edited by proxy' }] },
    });
    expect(edited.status).toBe(200);

    const audit = await t.db('audit_events').orderBy('created_at').orderBy('uuid');
    expect(audit.map((e) => [e.action, e.actor_uuid, e.admin_uuid, e.credential_uuid, e.method, e.path, e.status])).toEqual([
      ['exchange_token.issued', p.member.user.uuid, p.admin.uuid, p.adminKeyUuid, null, null, null],
      ['exchange_token.used', p.member.user.uuid, p.admin.uuid, p.adminKeyUuid, 'POST', `/v1/checkins/${checkin.uuid}/responses/`, 201],
      ['exchange_token.used', p.member.user.uuid, p.admin.uuid, p.adminKeyUuid, 'PUT', `/v1/checkins/${checkin.uuid}/responses/`, 200],
    ]);

    // Admins read it: newest first, narrowed by action or person.
    const log = await t.request('GET', `/v1/exchange-token/audit/?action=exchange_token.used&user=${p.member.user.uuid}`, { key: p.adminKey });
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({ count: 2, next: null, previous: null });
    expect(log.body.results[0]).toEqual({
      uuid: audit[2].uuid, id: audit[2].uuid, action: 'exchange_token.used',
      user: { uuid: p.member.user.uuid, full_name: 'Mia Member' }, admin: { uuid: p.admin.uuid, full_name: 'Ada Admin' },
      credential_uuid: p.adminKeyUuid, exchange_token_uuid: audit[0].exchange_token_uuid, method: 'PUT', path: `/v1/checkins/${checkin.uuid}/responses/`, status: 200,
      created_at: '2026-03-10T15:00:00.000Z',
    });
    expect((await t.request('GET', '/v1/exchange-token/audit/', { key: p.adminKey })).body.count).toBe(3);
    expect((await t.request('GET', '/v1/exchange-token/audit/', { key: p.member.key })).body.code).toBe('org_admin_required');
    expect((await t.request('GET', '/v1/exchange-token/audit/?action=nope', { key: p.adminKey })).body.code).toBe('invalid_filter_value');

    t.clock.advance(300_000);
    const expired = await answer({ 'x-exchange-token': token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: DETAIL, code: 'credential_expired' });
    t.clock.advance(25 * 3600 * 1000);
    expect(await pruneExchangeTokens(t.db, t.clock.now())).toBe(1);
  });

  it('gives and boosts kudos as the member', async () => {
    await exchange('on');
    const { token } = (await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: p.member.user.uuid } })).body;
    const given = await t.request('POST', '/v1/kudos/', { key: p.adminKey, headers: { 'x-exchange-token': token }, body: { content: 'Thanks for covering', receivers: [p.other.user.uuid] } });
    expect(given.status).toBe(201);
    const received = await t.request('GET', '/v1/kudos/?filter=kudos_received', { key: p.other.key });
    expect(received.body.results[0]).toMatchObject({ content: 'Thanks for covering', giver: { uuid: p.member.user.uuid } });
    // Mia cannot boost her own kudos, even through the admin.
    const boost = await t.request('POST', `/v1/kudos/${given.body.uuid}/boost/`, { key: p.adminKey, headers: { 'x-exchange-token': token } });
    expect(boost.body.code).toBe('self_boost');
    const audit = await t.db('audit_events').where({ action: 'exchange_token.used' }).orderBy('created_at').orderBy('uuid');
    expect(audit.map((e) => [e.method, e.status, e.actor_uuid])).toEqual([['POST', 201, p.member.user.uuid], ['POST', 400, p.member.user.uuid]]);
  });

  it('works with an admin\'s CLI token too, and only on the writes the spec names', async () => {
    await exchange('on');
    const adminToken = await t.seedToken(p.org.uuid, p.admin.uuid);
    const { token } = (await t.request('POST', '/v1/exchange-token/', { token: adminToken, body: { user_uuid: p.member.user.uuid } })).body;
    const viaBearer = await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, {
      token: adminToken, headers: { 'x-exchange-token': token }, body: { responses: questions.map((q) => ({ uuid: q.uuid, response: 'x' })) },
    });
    expect(viaBearer.status).toBe(201);
    for (const [method, path] of [['GET', '/v1/me/'], ['POST', '/v1/teams/'], ['GET', `/v1/checkins/${checkin.uuid}/responses/`]]) {
      const res = await t.request(method, path, { key: p.adminKey, headers: { 'x-exchange-token': token }, ...(method === 'POST' ? { body: { name: 'X' } } : {}) });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'X-Exchange-Token acts only for giving kudos and for check-in responses.', code: 'exchange_token_not_accepted' });
    }
  });

  it('refuses members: asking for a token, and presenting one', async () => {
    await exchange('on');
    const ask = await t.request('POST', '/v1/exchange-token/', { key: p.member.key, body: { user_uuid: p.other.user.uuid } });
    expect(ask.status).toBe(403);
    expect(ask.body).toEqual({ detail: 'Only organization admins can do this.', code: 'org_admin_required' });
    const { token } = (await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: p.member.user.uuid } })).body;
    const used = await answer({ 'x-exchange-token': token }, p.other.key);
    expect(used.status).toBe(403);
    expect(used.body.code).toBe('org_admin_required');
    expect(await t.db('audit_events').where({ action: 'exchange_token.used' })).toEqual([]);
  });

  it('is presented only by the admin who asked for it, with a credential that governs; any number of times in its 300 seconds', async () => {
    await exchange('on');
    const { token } = (await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: p.member.user.uuid } })).body;
    const second = await t.seedUser(p.org.uuid, { role: 'admin', email: 'ada2@acme.test' });
    const agent = await t.seedUser(p.org.uuid, { role: 'admin', kind: 'agent', email: 'bot@acme.test' });
    const byOtherAdmin = await answer({ 'x-exchange-token': token }, second.key);
    expect([byOtherAdmin.status, byOtherAdmin.body]).toEqual([401, { detail: DETAIL, code: 'invalid_credentials' }]);
    const byAgentKey = await answer({ 'x-exchange-token': token }, agent.key);
    expect([byAgentKey.status, byAgentKey.body.code]).toEqual([403, 'insufficient_scope']);
    expect((await t.request('POST', '/v1/exchange-token/', { key: agent.key, body: { user_uuid: p.member.user.uuid } })).body.code).toBe('insufficient_scope');
    // Its own admin, with a key or a CLI token, as often as needed; each use is audited.
    expect((await answer({ 'x-exchange-token': token })).status).toBe(201);
    const adminToken = await t.seedToken(p.org.uuid, p.admin.uuid);
    const again = await t.request('PUT', `/v1/checkins/${checkin.uuid}/responses/`, { token: adminToken, headers: { 'x-exchange-token': token }, body: { responses: [{ uuid: questions[0].uuid, response: 'Again' }] } });
    expect(again.status).toBe(200);
    expect((await t.db('audit_events').where({ action: 'exchange_token.used' })).map((e) => e.status)).toEqual([201, 200]);
  });

  it('names nobody outside the organization: unknown members, other organizations\' tokens, junk tokens', async () => {
    await exchange('on');
    const missing = await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: '0190c8f4-0000-7000-8000-000000000000' } });
    expect(missing.status).toBe(404);
    const globex = await seedPeople(t, { name: 'Globex' });
    await setExchangeCommand(t.db, t.clock, globex.org.uuid, 'on');
    expect((await t.request('POST', '/v1/exchange-token/', { key: p.adminKey, body: { user_uuid: globex.member.user.uuid } })).status).toBe(404);
    const theirs = (await t.request('POST', '/v1/exchange-token/', { key: globex.adminKey, body: { user_uuid: globex.member.user.uuid } })).body.token;
    const crossed = await answer({ 'x-exchange-token': theirs });
    expect(crossed.status).toBe(401);
    expect(crossed.body).toEqual({ detail: DETAIL, code: 'invalid_credentials' });
    expect((await answer({ 'x-exchange-token': 'rxt_nope' })).body.code).toBe('invalid_credentials');
  });
});
