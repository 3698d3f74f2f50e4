import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

describe('Agents: reports, co-author merge, health, messages (spec "Agent endpoints", CONTRACT §6, §12)', () => {
  let t: TestApp;
  let p: People;
  const createCheckin = async (body: Record<string, unknown>) => (await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body })).body;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  it('creates the agent on the first report and merges into co-authors (uuid and e-mail mixed, unknown ignored, appended to an existing answer)', async () => {
    // Tuesday 2026-03-10: both members take part in a stand-up scheduled today.
    const standup = await createCheckin({
      name: 'Daily', schedule: { days: [2], timezone: 'UTC' }, participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
      questions: [{ question_type: 'text', question: 'Done?' }, { question_type: 'text', question: 'Next?' }, { question_type: 'text', question: 'Blockers?', is_blocker: true, required: false }],
    });
    // Otto already answered today.
    const answered = await t.request('POST', `/v1/checkins/${standup.uuid}/responses/`, { key: p.other.key, body: { responses: [{ index: 0, response: 'Reviewed PRs' }, { index: 1, response: 'Release' }] } });
    expect(answered.status).toBe(201);

    const res = await t.request('POST', '/v1/agent-reports/', {
      key: p.adminKey,
      body: {
        agent_name: 'Deploy Bot (v2)',
        content: 'Shipped the release',
        structured: { completed: ['Deployed v2'], in_progress: ['Smoke tests'], blockers: ['Flaky CI'] },
        metadata: { run: 42 },
        is_milestone: true,
        co_authors: [p.member.user.uuid, 'OTTO@acme.test', 'ghost@nowhere.test', '0190c8f4-0000-7000-8000-000000000000', 'not-an-id'],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: res.body.uuid,
      uuid: res.body.uuid,
      agent_name: 'Deploy Bot (v2)',
      content: 'Shipped the release',
      structured: { completed: ['Deployed v2'], in_progress: ['Smoke tests'], blockers: ['Flaky CI'] },
      metadata: { run: 42 },
      is_milestone: true,
      co_authors: [
        { uuid: p.member.user.uuid, name: 'Mia Member', full_name: 'Mia Member' },
        { uuid: p.other.user.uuid, name: 'Otto Member', full_name: 'Otto Member' },
      ],
      // Ignored as the spec says, and named so the caller sees which (as sent).
      co_authors_unresolved: ['ghost@nowhere.test', '0190c8f4-0000-7000-8000-000000000000', 'not-an-id'],
      created_at: '2026-03-10T15:00:00.000Z',
      pending_messages: [],
    });
    const rows = (await t.request('GET', `/v1/checkins/${standup.uuid}/responses/`, { key: p.adminKey })).body.results;
    const byUser = Object.fromEntries(rows.map((r: { user: { uuid: string }; responses: { response: string }[] }) => [r.user.uuid, r.responses.map((a) => a.response)]));
    expect(byUser[p.member.user.uuid]).toEqual([
      'Deployed v2 (co-authored with Deploy Bot (v2))',
      'Smoke tests (co-authored with Deploy Bot (v2))',
      'Flaky CI (co-authored with Deploy Bot (v2))',
    ]);
    expect(byUser[p.other.user.uuid]).toEqual([
      'Reviewed PRs\nDeployed v2 (co-authored with Deploy Bot (v2))',
      'Release\nSmoke tests (co-authored with Deploy Bot (v2))',
      'Flaky CI (co-authored with Deploy Bot (v2))',
    ]);
    const agents = await t.db('agents');
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ name: 'Deploy Bot (v2)', slug: 'deploy-bot-v2' });

    const list = await t.request('GET', `/v1/agent-reports/?agent_name=${encodeURIComponent('Deploy Bot (v2)')}`, { key: p.member.key });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    const { pending_messages: _pending, co_authors_unresolved: _unresolved, ...stored } = res.body;
    expect(list.body.results).toEqual([stored]);
    expect((await t.request('GET', '/v1/agent-reports/?agent_name=other', { key: p.member.key })).body.count).toBe(0);
  });

  it('no stand-up today: the report is stored, nothing is merged, no error; plain content goes into the first question', async () => {
    await createCheckin({ name: 'Mondays', schedule: { days: [1] }, participants: { user_uuids: [p.member.user.uuid] } });
    const none = await t.request('POST', '/v1/agent-reports/', { key: p.adminKey, body: { agent_name: 'bot', content: 'Did things', co_authors: [p.member.key ? p.member.user.email : ''] } });
    expect(none.status).toBe(201);
    expect(none.body.co_authors).toEqual([{ uuid: p.member.user.uuid, name: 'Mia Member', full_name: 'Mia Member' }]);
    expect(await t.db('checkin_responses')).toEqual([]);
    const today = await createCheckin({ name: 'Today', schedule: { days: [2] }, participants: { user_uuids: [p.member.user.uuid] }, questions: [{ question_type: 'text', question: 'What did you do?' }] });
    await t.request('POST', '/v1/agent-reports/', { key: p.adminKey, body: { agent_name: 'bot', content: 'Line one\nLine two', co_authors: [p.member.user.uuid] } });
    const row = (await t.request('GET', `/v1/checkins/${today.uuid}/responses/`, { key: p.member.key })).body.results[0];
    expect(row.responses.map((r: { response: string }) => r.response)).toEqual(['Line one (co-authored with bot)\nLine two (co-authored with bot)']);
  });

  it('validates agent names: the attribution alphabet, 1–128 characters, never truncated; a 400 naming the field', async () => {
    const bad = await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: 'bot<script>', ok: true } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: expect.any(String), code: 'invalid_agent_attribution', extra: { parameter: 'agent_name' } });
    const long = await t.request('POST', '/v1/agent-reports/', { key: p.adminKey, body: { agent_name: 'a'.repeat(129), content: 'x' } });
    expect(long.body).toMatchObject({ code: 'invalid_agent_attribution', extra: { parameter: 'agent_name' } });
    const ok = await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: "Zoë's bot #1 + co/ops & more, v:2 (beta)_x-y.z", ok: true } });
    expect(ok.status).toBe(200);
    expect((await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: 'é'.repeat(128), ok: true } })).status).toBe(200);
    const missing = await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { ok: true } });
    expect(missing.body).toEqual({ agent_name: ['This field is required.'] });
    const unknown = await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: 'x', ok: true, status: 'fine' } });
    expect(unknown.body).toEqual({ detail: 'Unknown field: status.', code: 'unknown_field', extra: { parameter: 'status' } });
    const badQuery = await t.request('GET', '/v1/agent-messages/?agent_name=%3Cx%3E', { key: p.adminKey });
    expect(badQuery.body.code).toBe('invalid_agent_attribution');
  });

  it('health: healthy/unhealthy, last_check = last_check_at, pending messages once and then delivered, history', async () => {
    const first = await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: 'builder', ok: true, message: 'starting' } });
    expect(first.body).toEqual({ agent_name: 'builder', status: 'healthy', last_check_at: '2026-03-10T15:00:00.000Z', last_check: '2026-03-10T15:00:00.000Z', message: 'starting', pending_messages: [] });

    t.clock.advance(1000);
    const sent = await t.request('POST', '/v1/agent-messages/', { key: p.member.key, body: { agent_name: 'builder', content: 'Please rerun the tests' } });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      id: sent.body.uuid, uuid: sent.body.uuid, agent_name: 'builder', sender_name: 'Mia Member', sender_type: 'human', message_type: 'text',
      content: 'Please rerun the tests', metadata: {}, delivered: false, created_at: '2026-03-10T15:00:01.000Z', expires_at: null,
    });
    await t.request('POST', '/v1/agent-messages/', { key: p.member.key, body: { agent_name: 'builder', content: 'stale', expires_at: '2026-03-10T15:00:30.000Z' } });
    await t.request('POST', '/v1/agent-messages/', { key: p.adminKey, body: { agent_name: 'builder', content: 'stop', message_type: 'command', sender_type: 'system', metadata: { priority: 'high' } } });
    t.clock.advance(60_000); // the "stale" one has expired

    // Reading does not deliver.
    const peek = await t.request('GET', '/v1/agent-health/?agent_name=builder', { key: p.adminKey });
    expect(peek.body.pending_messages.map((m: { content: string }) => m.content)).toEqual(['Please rerun the tests', 'stop']);
    const undelivered = await t.request('GET', '/v1/agent-messages/?agent_name=builder&delivered=false', { key: p.adminKey });
    expect(Array.isArray(undelivered.body)).toBe(true);
    expect(undelivered.body.map((m: { content: string }) => m.content)).toEqual(['Please rerun the tests', 'stop']);
    expect(undelivered.body[1]).toMatchObject({ sender_type: 'system', sender_name: 'Rollcall', message_type: 'command', metadata: { priority: 'high' } });

    const second = await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: 'builder', ok: false, message: 'tests failing' } });
    expect(second.body).toMatchObject({ status: 'unhealthy', message: 'tests failing', last_check_at: '2026-03-10T15:01:01.000Z', last_check: '2026-03-10T15:01:01.000Z' });
    expect(second.body.pending_messages.map((m: { content: string }) => m.content)).toEqual(['Please rerun the tests', 'stop']);
    for (const m of second.body.pending_messages) {
      for (const field of ['id', 'agent_name', 'sender_name', 'content', 'message_type', 'created_at']) expect(typeof m[field]).toBe('string');
    }
    const third = await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: 'builder', ok: true } });
    expect(third.body.pending_messages).toEqual([]);
    expect((await t.request('GET', '/v1/agent-messages/?agent_name=builder&delivered=false', { key: p.adminKey })).body).toEqual([]);
    const delivered = await t.request('GET', '/v1/agent-messages/?agent_name=builder&delivered=true', { key: p.adminKey });
    expect(delivered.body.map((m: { content: string; delivered: boolean }) => [m.content, m.delivered])).toEqual([['Please rerun the tests', true], ['stop', true]]);

    const detail = await t.request('GET', '/v1/agent-health/?agent_name=builder', { key: p.member.key });
    expect(detail.body).toEqual({
      agent_name: 'builder', status: 'healthy', last_check_at: '2026-03-10T15:01:01.000Z', last_check: '2026-03-10T15:01:01.000Z', message: '',
      pending_messages: [],
      history: [
        { timestamp: '2026-03-10T15:01:01.000Z', status: 'healthy', message: '' },
        { timestamp: '2026-03-10T15:01:01.000Z', status: 'unhealthy', message: 'tests failing' },
        { timestamp: '2026-03-10T15:00:00.000Z', status: 'healthy', message: 'starting' },
      ],
    });
    expect((await t.request('GET', '/v1/agent-health/?agent_name=nobody', { key: p.adminKey })).status).toBe(404);
    expect((await t.request('GET', '/v1/agent-health/', { key: p.adminKey })).body).toEqual({ agent_name: ['This query parameter is required.'] });

    await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: 'auditor', ok: false } });
    const all = await t.request('GET', '/v1/agent/health/', { key: p.member.key });
    expect(all.body).toMatchObject({ count: 2, next: null, previous: null });
    expect(all.body.results.map((a: { agent_name: string; status: string }) => [a.agent_name, a.status])).toEqual([['auditor', 'unhealthy'], ['builder', 'healthy']]);
  });

  it('marks messages read with POST and PATCH /v1/agent-messages/read/; other organizations\' ids are ignored', async () => {
    const ids: string[] = [];
    for (const content of ['a', 'b', 'c']) ids.push((await t.request('POST', '/v1/agent-messages/', { key: p.adminKey, body: { agent_name: 'reader', content } })).body.id);
    const other = await t.seedOrganization({ name: 'Globex' });
    const foreign = (await t.request('POST', '/v1/agent-messages/', { key: other.adminKey, body: { agent_name: 'reader', content: 'z' } })).body.id;
    const post = await t.request('POST', '/v1/agent-messages/read/', { key: p.adminKey, body: { message_ids: [ids[0], foreign, 'nope'] } });
    expect(post.body).toEqual({ updated: 1 });
    const patch = await t.request('PATCH', '/v1/agent-messages/read/', { key: p.adminKey, body: { message_ids: [ids[1], ids[2]] } });
    expect(patch.body).toEqual({ updated: 2 });
    // Read again, nothing changes: the count says so. A message delivered by a health answer is still read once.
    for (const method of ['POST', 'PATCH']) {
      expect((await t.request(method, '/v1/agent-messages/read/', { key: p.adminKey, body: { message_ids: ids } })).body).toEqual({ updated: 0 });
    }
    const later = (await t.request('POST', '/v1/agent-messages/', { key: p.adminKey, body: { agent_name: 'reader', content: 'd' } })).body.id;
    expect((await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: 'reader', ok: true } })).body.pending_messages).toHaveLength(1);
    expect((await t.request('POST', '/v1/agent-messages/read/', { key: p.adminKey, body: { message_ids: [later, later, ids[0]] } })).body).toEqual({ updated: 1 });
    expect((await t.request('POST', '/v1/agent-messages/read/', { key: p.adminKey, body: { message_ids: [later] } })).body).toEqual({ updated: 0 });
    expect((await t.request('GET', '/v1/agent-messages/?agent_name=reader&delivered=false', { key: p.adminKey })).body).toEqual([]);
    expect((await t.request('GET', '/v1/agent-messages/?agent_name=reader&delivered=false', { key: other.adminKey })).body.map((m: { id: string }) => m.id)).toEqual([foreign]);
    expect((await t.request('GET', '/v1/agent-messages/?delivered=maybe', { key: p.adminKey })).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'delivered' } });
    const invalid = await t.request('POST', '/v1/agent-messages/', { key: p.adminKey, body: { agent_name: 'x', content: 'y', message_type: 'video', sender_type: 'robot' } });
    expect(invalid.body).toEqual({ message_type: ['Must be one of: text, command, system, email.'], sender_type: ['Must be one of: human, agent, system.'] });
  });

  it('agent_name names the recipient: one agent\'s message to another waits in the other\'s queue, never the sender\'s', async () => {
    const sent = await t.request('POST', '/v1/agent-messages/', {
      key: p.adminKey,
      body: { agent_name: 'review-bot', sender_type: 'agent', sender_name: 'deploy-bot', content: 'Run the checks again, please' },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ agent_name: 'review-bot', sender_type: 'agent', sender_name: 'deploy-bot', delivered: false });
    const health = async (agent: string) => (await t.request('POST', '/v1/agent-health/', { key: p.adminKey, body: { agent_name: agent, ok: true } })).body;
    expect((await health('deploy-bot')).pending_messages).toEqual([]);
    expect((await health('review-bot')).pending_messages.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
  });

  it('a message expires_at is a date-time that exists, with Z or an offset; it is stored and shown in UTC', async () => {
    for (const expires_at of ['2026-13-01T00:00:00Z', '9999-12-31T99:99:99Z', '2026-02-30T00:00:00Z', '2026-03-10T25:00:00+01:00']) {
      const res = await t.request('POST', '/v1/agent-messages/', { key: p.adminKey, body: { agent_name: 'timer', content: 'x', expires_at } });
      expect([expires_at, res.status, Object.keys(res.body)]).toEqual([expires_at, 400, ['expires_at']]);
    }
    // The clock stands at 2026-03-10T15:00Z: 17:30+02:00 is half an hour from now, 16:30+02:00 half an hour ago.
    const later = await t.request('POST', '/v1/agent-messages/', { key: p.adminKey, body: { agent_name: 'timer', content: 'soon', expires_at: '2026-03-10T17:30:00+02:00' } });
    expect([later.status, later.body.expires_at]).toEqual([201, '2026-03-10T15:30:00.000Z']);
    await t.request('POST', '/v1/agent-messages/', { key: p.adminKey, body: { agent_name: 'timer', content: 'gone', expires_at: '2026-03-10T16:30:00.000000+02:00' } });
    expect((await t.request('GET', '/v1/agent-messages/?agent_name=timer', { key: p.adminKey })).body.map((m: { content: string }) => m.content)).toEqual(['soon']);
    t.clock.advance(31 * 60_000);
    expect((await t.request('GET', '/v1/agent-messages/?agent_name=timer', { key: p.adminKey })).body).toEqual([]);
  });

  it('API key and CLI Bearer of the same user get identical bodies (spec Versioning 5)', async () => {
    const token = await t.seedToken(p.org.uuid, p.member.user.uuid);
    await t.request('POST', '/v1/agent-messages/', { key: p.adminKey, body: { agent_name: 'twin', content: 'hello' } });
    const viaKey = await t.request('POST', '/v1/agent-reports/', { key: p.member.key, body: { agent_name: 'twin', content: 'report', co_authors: [p.member.user.email] } });
    const viaToken = await t.request('POST', '/v1/agent-reports/', { token, body: { agent_name: 'twin', content: 'report', co_authors: [p.member.user.email] } });
    expect(viaToken.status).toBe(viaKey.status);
    const strip = (b: Record<string, unknown>) => ({ ...b, id: null, uuid: null });
    expect(strip(viaToken.body)).toEqual(strip(viaKey.body));
    for (const path of ['/v1/agent-health/?agent_name=twin', '/v1/agent-messages/?agent_name=twin', '/v1/agent/health/', '/v1/agent-reports/?agent_name=twin&page_size=1', '/v1/agent-health/?agent_name=%3C']) {
      const a = await t.request('GET', path, { key: p.member.key });
      const b = await t.request('GET', path, { token });
      expect([b.status, b.body], path).toEqual([a.status, a.body]);
      expect(b.headers.get('ratelimit-policy')).toBe(a.headers.get('ratelimit-policy'));
    }
    const ha = await t.request('POST', '/v1/agent-health/', { key: p.member.key, body: { agent_name: 'twin', ok: true } });
    const hb = await t.request('POST', '/v1/agent-health/', { token, body: { agent_name: 'twin', ok: true } });
    expect(ha.body.pending_messages).toHaveLength(1);
    expect({ ...hb.body, pending_messages: ha.body.pending_messages }).toEqual(ha.body);
    expect(ha.headers.get('ratelimit-policy')).toBe('"agent";q=2000;w=3600');
  });

  it('free plan: CLI Bearer may report (50 per organization per UTC day, then 429 with Retry-After to midnight); API keys are refused', async () => {
    const free = await t.seedOrganization({ name: 'Freebies', plan: 'free' });
    const token = await t.seedToken(free.org.uuid, free.admin.uuid);
    t.clock.set('2026-03-10T23:00:00.000Z');
    for (let i = 0; i < 50; i++) {
      const ok = await t.request('POST', '/v1/agent-reports/', { token, body: { agent_name: 'bot', content: `r${i}` } });
      expect(ok.status).toBe(201);
    }
    const over = await t.request('POST', '/v1/agent-reports/', { token, body: { agent_name: 'bot', content: 'r50' } });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('free_plan_daily_limit_exceeded');
    expect(over.headers.get('retry-after')).toBe('3600');
    // Allowed endpoints for a free-plan Bearer; the rest answer plan_upgrade_required.
    expect((await t.request('GET', '/v1/agent-messages/?agent_name=bot', { token })).status).toBe(200);
    expect((await t.request('POST', '/v1/agent-messages/', { token, body: { agent_name: 'bot', content: 'hi' } })).status).toBe(201);
    expect((await t.request('POST', '/v1/agent-messages/read/', { token, body: { message_ids: [] } })).status).toBe(200);
    expect((await t.request('GET', '/v1/agent/health/', { token })).status).toBe(200);
    const refused = await t.request('POST', '/v1/agent-health/', { token, body: { agent_name: 'bot', ok: true } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_upgrade_required');
    expect((await t.request('POST', '/v1/agent-email/send/', { token, body: { agent_name: 'bot', to: ['a@b.test'], subject: 's', body_html: 'x' } })).body.code).toBe('plan_upgrade_required');
    expect((await t.request('POST', '/v1/agent-reports/', { key: free.adminKey, body: { agent_name: 'bot', content: 'x' } })).body.code).toBe('plan_free_api_keys_forbidden');
    // A new UTC day.
    t.clock.set('2026-03-11T00:00:01.000Z');
    expect((await t.request('POST', '/v1/agent-reports/', { token, body: { agent_name: 'bot', content: 'tomorrow' } })).status).toBe(201);
    // Paid plans have no cap, whatever the credential.
    const paidToken = await t.seedToken(p.org.uuid, p.admin.uuid);
    for (let i = 0; i < 51; i++) expect((await t.request('POST', '/v1/agent-reports/', { token: paidToken, body: { agent_name: 'bot', content: `p${i}` } })).status).toBe(201);
  });

  it('every agent endpoint needs a credential and counts against the agent-scoped budget', async () => {
    for (const [method, path] of [['POST', '/v1/agent-reports/'], ['GET', '/v1/agent-reports/'], ['POST', '/v1/agent-health/'], ['GET', '/v1/agent-health/'], ['GET', '/v1/agent/health/'], ['POST', '/v1/agent-messages/'], ['GET', '/v1/agent-messages/'], ['POST', '/v1/agent-messages/read/'], ['PATCH', '/v1/agent-messages/read/'], ['POST', '/v1/agent-email/send/'], ['POST', '/v1/agent-webhook/'], ['DELETE', '/v1/agent-webhook/']]) {
      const res = await t.request(method, path, method === 'GET' ? {} : { body: {} });
      expect([path, res.status, res.body.code]).toEqual([path, 401, 'credential_absent']);
    }
    const limited = await startTestApp({}, { RATE_LIMIT_AGENT: '2' });
    try {
      const acme = await limited.seedOrganization();
      expect((await limited.request('GET', '/v1/agent/health/', { key: acme.adminKey })).status).toBe(200);
      expect((await limited.request('POST', '/v1/agent-health/', { key: acme.adminKey, body: { agent_name: 'b', ok: true } })).status).toBe(200);
      const third = await limited.request('GET', '/v1/agent-messages/', { key: acme.adminKey });
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('throttled');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
