import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { VERSION } from '../../lib/version.ts';

describe('command-line client endpoints (CONTRACT §8)', () => {
  let t: TestApp;
  let p: People;
  let token: string;
  const create = async (body: Record<string, unknown>) => (await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body })).body;
  beforeEach(async () => {
    t = await startTestApp({ cliDownloadUrl: 'https://downloads.acme.test/rollcall' });
    p = await seedPeople(t);
    token = await t.seedToken(p.org.uuid, p.member.user.uuid);
  });
  afterEach(async () => t.close());

  it('answers the update manifest with the server version and the newest changelog entry', async () => {
    const res = await t.request('GET', '/v1/cli/updates/', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ latest_version: VERSION, minimum_version: '0.1.0', download_url: 'https://downloads.acme.test/rollcall', changelog: expect.stringMatching(/^\d+\.\d+\.\d+ \(\d{4}-\d\d-\d\d\): .+\n- /) });
    expect((await t.request('GET', '/v1/cli/updates/', { key: p.member.key })).body).toEqual(res.body);
  });

  it('lists the check-ins waiting for the caller today, with their questions, until they are answered', async () => {
    const member = p.member.user.uuid;
    expect((await t.request('GET', '/v1/cli/status/', { token })).body).toEqual({ pending_checkins: [] });
    // Tuesday 2026-03-10 15:00Z.
    const daily = await create({ name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], timezone: 'UTC' }, participants: { user_uuids: [member] } });
    await create({ name: 'Mondays', schedule: { days: [1], timezone: 'UTC' }, participants: { user_uuids: [member] } });
    await create({ name: 'Not mine', schedule: { days: [2], timezone: 'UTC' }, participants: { user_uuids: [p.other.user.uuid] } });
    const status = await t.request('GET', '/v1/cli/status/', { token });
    expect(status.status).toBe(200);
    expect(status.body.pending_checkins).toHaveLength(1);
    const [pending] = status.body.pending_checkins;
    expect(pending).toMatchObject({ followup_uuid: daily.uuid, followup_name: 'Daily', date: '2026-03-10' });
    const detail = await t.request('GET', `/v1/checkins/${daily.uuid}/detail/`, { key: p.member.key });
    expect(pending.template_questions).toEqual(detail.body.questions);
    expect(Object.keys(pending.template_questions[0])).toEqual(expect.arrayContaining(['uuid', 'index', 'question', 'question_type', 'required', 'is_blocker', 'choices']));

    // Answered today: no longer pending (checkin complete does this).
    const responses = pending.template_questions.map((q: { uuid: string }) => ({ uuid: q.uuid, response: 'fine' }));
    expect((await t.request('POST', `/v1/checkins/${daily.uuid}/responses/`, { token, body: { responses } })).status).toBe(201);
    expect((await t.request('GET', '/v1/cli/status/', { token })).body).toEqual({ pending_checkins: [] });
    // Agent keys act for nobody.
    const agent = await t.seedUser(p.org.uuid, { kind: 'agent' });
    expect((await t.request('GET', '/v1/cli/status/', { key: agent.key })).body.code).toBe('insufficient_scope');
  });

  it('writes a stand-up update into every check-in scheduled today, and appends when the answer exists', async () => {
    const member = p.member.user.uuid;
    const none = await t.request('POST', '/v1/cli/updates/', { token, body: { done: 'Shipped the release' } });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ followups_count: 0, attached_followups: [], detail: 'You have no check-in with a text question scheduled today.' });

    const daily = await create({
      name: 'Daily', schedule: { days: [2], timezone: 'UTC' }, participants: { user_uuids: [member] },
      questions: [
        { question_type: 'text', question: 'What did you do?' },
        { question_type: 'text', question: 'What will you do?' },
        { question_type: 'text', question: 'Anything blocking you?', is_blocker: true, required: false },
      ],
    });
    const yesNo = await create({ name: 'Pulse', schedule: { days: [2], timezone: 'UTC' }, participants: { user_uuids: [member] }, questions: [{ question_type: 'boolean', question: 'OK?' }] });
    const first = await t.request('POST', '/v1/cli/updates/', { token, body: { done: ['Shipped the release', 'Fixed the login bug'], doing: 'Docs', blocked: 'Waiting on review' }, example: true });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      followups_count: 1,
      attached_followups: [{ followup_uuid: daily.uuid, followup_name: 'Daily', date: '2026-03-10', action: 'created', response_completed: true, unanswered_questions: [] }],
      detail: 'Added to 1 check-in.',
    });
    expect(yesNo.uuid).toBeDefined();
    const second = await t.request('POST', '/v1/cli/updates/', { token, body: { message: 'Also: lunch with the team' } });
    expect(second.body.attached_followups[0].action).toBe('updated');

    const history = await t.request('GET', `/v1/checkins/${daily.uuid}/responses/`, { key: p.member.key });
    expect(history.body.results[0].responses.map((r: { question: string; response: string }) => [r.question, r.response])).toEqual([
      ['What did you do?', 'Shipped the release\nFixed the login bug\nAlso: lunch with the team'],
      ['What will you do?', 'Docs'],
      ['Anything blocking you?', 'Waiting on review'],
    ]);
    expect(history.body.results[0].response_completed).toBe(true);
  });

  it('refuses an empty update with a field map', async () => {
    const res = await t.request('POST', '/v1/cli/updates/', { token, body: { done: [' '], message: '' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: ['Give message, done, doing or blocked.'] });
    const wrong = await t.request('POST', '/v1/cli/updates/', { token, body: { done: [1, 2] } });
    expect(wrong.body).toEqual({ done: ['Must be a text or a list of up to 50 texts of at most 2,000 characters.'] });
  });
});
