import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople, subscribeToAllEvents } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

interface Question { uuid: string; index: number; question: string; is_blocker: boolean }

describe('Check-in responses (CONTRACT §7, §12)', () => {
  let t: TestApp;
  let p: People;
  let checkin: { uuid: string; questions: Question[] };
  let path: string;
  const create = async (extra: Record<string, unknown> = {}) =>
    (
      await t.request('POST', '/v1/checkins/create/', {
        key: p.adminKey,
        body: {
          name: 'Stand-up',
          schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'America/Bogota' },
          participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid, p.admin.uuid] },
          questions: [
            { question_type: 'text', question: 'Done?' },
            { question_type: 'text', question: 'Next?' },
            { question_type: 'text', question: 'Blockers?', required: false, is_blocker: true },
            { question_type: 'boolean', question: 'On track?', required: false },
            { question_type: 'numeric', question: 'Focus hours?', required: false },
            { question_type: 'multiple_choice', question: 'Mood?', options: ['good', 'bad'], required: false },
          ],
          ...extra,
        },
      })
    ).body;
  const answer = (q: Question[], values: unknown[]) => values.map((response, i) => ({ uuid: q[i].uuid, response })).filter((a) => a.response !== undefined);
  const events = async () =>
    (await t.db('organization_events').where('event', 'like', 'followups.%').orderBy('uuid')).map((e: { event: string; payload: string }) => ({ event: e.event, payload: JSON.parse(e.payload) }));

  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    await subscribeToAllEvents(t, p.adminKey);
    // 2026-03-10 15:00Z is Tuesday 10:00 in Bogota.
    checkin = await create();
    path = `/v1/checkins/${checkin.uuid}/responses/`;
  });
  afterEach(async () => t.close());

  it('submits once per day (201 with the response row), then edits with PUT and resets with DELETE', async () => {
    const q = checkin.questions;
    const posted = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['Shipped login', 'Reviews', 'none', true, 3.5, 'good']), last_question_index: 5 } });
    expect(posted.status).toBe(201);
    expect(posted.body).toEqual({
      uuid: posted.body.uuid, id: posted.body.uuid, followup_uuid: checkin.uuid,
      user: { uuid: p.member.user.uuid, full_name: 'Mia Member' },
      response_date: '2026-03-10', response_completed: true, has_issue: false, last_question_index: 5,
      created_at: '2026-03-10T15:00:00.000Z', updated_at: '2026-03-10T15:00:00.000Z',
      responses: [
        { uuid: q[0].uuid, index: 0, question: 'Done?', response: 'Shipped login' },
        { uuid: q[1].uuid, index: 1, question: 'Next?', response: 'Reviews' },
        { uuid: q[2].uuid, index: 2, question: 'Blockers?', response: 'none' },
        { uuid: q[3].uuid, index: 3, question: 'On track?', response: true },
        { uuid: q[4].uuid, index: 4, question: 'Focus hours?', response: 3.5 },
        { uuid: q[5].uuid, index: 5, question: 'Mood?', response: 'good' },
      ],
    });
    const twice = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['again']) } });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: 'You already answered this check-in for 2026-03-10; edit it with PUT.', code: 'response_already_exists', extra: { uuid: posted.body.uuid, response_date: '2026-03-10' } });

    t.clock.advance(60_000);
    const edited = await t.request('PUT', `/v1/followups/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 2, response: 'Waiting on the API team' }, { uuid: q[4].uuid, response: null }] } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ uuid: posted.body.uuid, has_issue: true, response_completed: true, updated_at: '2026-03-10T15:01:00.000Z' });
    expect(edited.body.responses.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 5]);
    expect(edited.body.responses[2].response).toBe('Waiting on the API team');

    const withBody = await t.request('DELETE', path, { key: p.member.key, body: { date: '2026-03-10' } });
    expect(withBody.body).toEqual({ detail: 'Unknown field: date.', code: 'unknown_field', extra: { parameter: 'date' } });
    const reset = await t.request('DELETE', path, { key: p.member.key, body: {} });
    expect(reset.status).toBe(204);
    expect((await t.request('GET', path, { key: p.member.key })).body.count).toBe(0);
    expect((await t.request('PUT', path, { key: p.member.key, body: { responses: [] } })).status).toBe(404);
    expect((await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['again', 'x']) } })).status).toBe(201);

    const recorded = await events();
    expect(recorded.map((e) => e.event)).toEqual(['followups.response.completed', 'followups.response.updated', 'followups.response.deleted', 'followups.response.completed']);
    expect(recorded[1].payload).toMatchObject({
      uuid: posted.body.uuid, followup: { uuid: checkin.uuid, id: checkin.uuid, name: 'Stand-up' }, is_anonymous: false,
      user: { uuid: p.member.user.uuid, full_name: 'Mia Member', email: 'mia@acme.test' },
      response_date: '2026-03-10', response_completed: true, has_issue: true,
    });
    expect(recorded[1].payload.responses[2]).toEqual({ uuid: q[2].uuid, index: 2, question: 'Blockers?', response: 'Waiting on the API team' });
  });

  it('detects blockers: a real blocker answer sets has_issue and fires the completed event with has_issue: true', async () => {
    const q = checkin.questions;
    const none = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['a', 'b', 'No blockers.']) } });
    expect(none.body.has_issue).toBe(false);
    const blocked = await t.request('POST', path, { key: p.other.key, body: { responses: answer(q, ['a', 'b', 'CI is red since Monday']) } });
    expect(blocked.body.has_issue).toBe(true);
    const recorded = await events();
    expect(recorded.map((e) => [e.event, e.payload.has_issue])).toEqual([['followups.response.completed', false], ['followups.response.completed', true]]);
  });

  it('takes answers question by question with last_question_index: response_completed is false until every required question is answered', async () => {
    const q = checkin.questions;
    const partial = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['only the first']), last_question_index: 0 } });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({ response_completed: false, last_question_index: 0 });
    // Not answered yet: a second POST says to add the rest with PUT; the day is still pending.
    const again = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['x', 'y']) } });
    expect(again.body).toEqual({
      detail: 'Your answer to this check-in for 2026-03-10 is already started and not complete yet; add the rest with PUT.',
      code: 'response_already_exists', extra: { uuid: partial.body.uuid, response_date: '2026-03-10' },
    });
    const rest = await t.request('PUT', path, { key: p.member.key, body: { responses: [{ index: 1, response: 'second' }], last_question_index: 1 } });
    expect(rest.body).toMatchObject({ response_completed: true, last_question_index: 1 });
    // Blanking a required answer the response has gone past is refused, and changes nothing.
    const blank = await t.request('PUT', path, { key: p.member.key, body: { responses: [{ index: 1, response: '   ' }] } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ 'responses.0.response': ['This question is required: the answer may not be blank.'] });
    expect((await t.request('GET', path, { key: p.member.key })).body.results[0]).toMatchObject({ response_completed: true, responses: [{ response: 'only the first' }, { response: 'second' }] });
  });

  it('refuses an answer that leaves a required question empty or blank (400, a field map naming each), on POST and PUT, and records nothing', async () => {
    const q = checkin.questions;
    const empty = await t.request('POST', path, { key: p.member.key, body: { responses: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ responses: ['The required question at index 0 ("Done?") has no answer.', 'The required question at index 1 ("Next?") has no answer.'] });
    const blank = await t.request('POST', path, { key: p.member.key, body: { responses: [{ uuid: q[0].uuid, response: ' \n\t ' }, { index: 2, response: 'none' }, { index: 1, response: null }] } });
    expect(blank.body).toEqual({
      'responses.0.response': ['This question is required: the answer may not be blank.'],
      'responses.2.response': ['This question is required: the answer may not be blank.'],
    });
    // A required multiple-choice question with no choice is unanswered too.
    const choice = await t.request('POST', `/v1/checkins/${checkin.uuid}/questions/`, { key: p.adminKey, body: { question_type: 'multiple_choice', question: 'Area?', options: ['api', 'web'] } });
    const none = await t.request('POST', path, { key: p.member.key, body: { responses: [...answer(q, ['a', 'b']), { uuid: choice.body.uuid, response: [] }] } });
    expect(none.body).toEqual({ 'responses.2.response': ['This question is required: the answer may not be blank.'] });
    expect(await t.db('checkin_responses')).toHaveLength(0);
    expect(await events()).toEqual([]);
    // Answered whole, the day counts: the check-ins list says so, and an edit that blanks an answer is refused.
    const whole = await t.request('POST', path, { key: p.member.key, body: { responses: [...answer(q, ['a', 'b']), { uuid: choice.body.uuid, response: ['api'] }] } });
    expect(whole.status).toBe(201);
    const listed = await t.request('GET', '/v1/checkins/?include_summary=true', { key: p.member.key });
    expect(listed.body.results[0]).toMatchObject({ response_completed: true, summary: { responded: 1, pending: 2 } });
    const put = await t.request('PUT', path, { key: p.member.key, body: { responses: [{ index: 0, response: '' }] } });
    expect(put.body).toEqual({ 'responses.0.response': ['This question is required: the answer may not be blank.'] });
    const cleared = await t.request('PUT', path, { key: p.member.key, body: { responses: [{ uuid: choice.body.uuid, response: null }] } });
    expect(cleared.body).toEqual({ 'responses.0.response': ['This question is required: the answer may not be blank.'] });
  });

  it('checks each answer against its question type and names the problem by path', async () => {
    const q = checkin.questions;
    const res = await t.request('POST', path, {
      key: p.member.key,
      body: { responses: [{ uuid: q[0].uuid, response: 5 }, { uuid: q[3].uuid, response: 'yes' }, { uuid: q[4].uuid, response: '3' }, { uuid: q[5].uuid, response: 'meh' }, { index: 9, response: 'x' }, { uuid: q[0].uuid, response: 'dup' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      'responses.0.response': ['A text answer is a string of at most 10000 characters.'],
      'responses.1.response': ['A yes/no answer is true or false.'],
      'responses.2.response': ['A numeric answer is a number.'],
      'responses.3.response': ['Must be one of the choices: good, bad.'],
      'responses.4.index': ['No such question in this check-in.'],
      'responses.5': ['This question is answered twice.'],
    });
    expect((await t.request('POST', path, { key: p.member.key, body: {} })).body).toEqual({ responses: ['This field is required.'] });
    const unknown = await t.request('POST', path, { key: p.member.key, body: { responses: [{ uuid: q[0].uuid, response: 'x', comment: 'y' }] } });
    expect(unknown.body).toEqual({ detail: 'Unknown field: responses.0.comment.', code: 'unknown_field', extra: { parameter: 'responses.0.comment' } });
    expect(await t.db('checkin_responses')).toHaveLength(0);
  });

  it('puts a response at 23:30 in America/Bogota on that Bogota day, and the next local day after midnight', async () => {
    const q = checkin.questions;
    t.clock.set('2026-03-11T04:30:00.000Z'); // Tuesday 23:30 in Bogota, already Wednesday in UTC
    const late = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['late', 'night']) } });
    expect(late.body.response_date).toBe('2026-03-10');
    expect((await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['again', 'x']) } })).status).toBe(409);
    t.clock.set('2026-03-11T05:30:00.000Z'); // 00:30 on Wednesday in Bogota
    const next = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['new', 'day']) } });
    expect(next.status).toBe(201);
    expect(next.body.response_date).toBe('2026-03-11');
    const summary = await t.request('GET', '/v1/checkins/?include_summary=true', { key: p.member.key });
    expect(summary.body.results[0]).toMatchObject({ response_completed: true, summary: { date: '2026-03-11', responded: 1 } });
  });

  it('refuses past and future days unless the check-in allows them (previous_/future_responses_are_not_allowed)', async () => {
    const q = checkin.questions;
    const past = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['a', 'b']), response_date: '2026-03-09' } });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ detail: 'This check-in does not take responses for past days.', code: 'previous_responses_are_not_allowed', extra: { parameter: 'response_date', today: '2026-03-10' } });
    const future = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['a', 'b']), response_date: '2026-03-11' } });
    expect(future.status).toBe(400);
    expect(future.body.code).toBe('future_responses_are_not_allowed');
    await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { allow_past_responses: true, allow_future_responses: true, start_on: '2026-03-01' } });
    const backfilled = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['a', 'b']), response_date: '2026-03-09' } });
    expect(backfilled.status).toBe(201);
    expect(backfilled.body.response_date).toBe('2026-03-09');
    expect((await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['a', 'b']), response_date: '2026-03-12' } })).status).toBe(201);
    const edited = await t.request('PUT', path, { key: p.member.key, body: { response_date: '2026-03-09', responses: [{ index: 0, response: 'edited' }] } });
    expect(edited.body.responses[0].response).toBe('edited');
    const before = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['a', 'b']), response_date: '2026-02-27' } });
    expect(before.body.code).toBe('outside_checkin_period');
    // DELETE takes the days as date_start/date_end.
    expect((await t.request('DELETE', `${path}?date_start=2026-03-09&date_end=2026-03-12`, { key: p.member.key })).status).toBe(204);
    expect(await t.db('checkin_responses')).toHaveLength(0);
  });

  it('lets only participants answer, and not on archived check-ins or with agent keys', async () => {
    const q = checkin.questions;
    const outsider = await t.request('POST', path, { key: p.manager.key, body: { responses: answer(q, ['a', 'b']) } });
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual({ detail: 'You do not take part in this check-in.', code: 'not_a_participant' });
    const agent = await t.seedUser(p.org.uuid, { kind: 'agent' });
    await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { participants: { user_uuids: [p.member.user.uuid, agent.user.uuid] } } });
    expect((await t.request('POST', path, { key: agent.key, body: { responses: answer(q, ['a', 'b']) } })).body.code).toBe('insufficient_scope');
    await t.request('DELETE', `/v1/checkins/${checkin.uuid}/archive/`, { key: p.adminKey });
    const archived = await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['a', 'b']) } });
    expect(archived.body).toEqual({ detail: 'This check-in is archived.', code: 'checkin_archived' });
  });

  it('reads history newest first, filtered by date_start/date_end (or start_date/end_date) and user', async () => {
    await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { allow_past_responses: true } });
    const q = checkin.questions;
    for (const day of ['2026-03-06', '2026-03-09', '2026-03-10']) {
      await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, [`mia ${day}`, 'x']), response_date: day } });
      await t.request('POST', path, { key: p.other.key, body: { responses: answer(q, [`otto ${day}`, 'x']), response_date: day } });
    }
    const all = await t.request('GET', path, { key: p.adminKey });
    expect(all.body.count).toBe(6);
    expect(all.body.results.map((r: { response_date: string }) => r.response_date)).toEqual(['2026-03-10', '2026-03-10', '2026-03-09', '2026-03-09', '2026-03-06', '2026-03-06']);
    expect(Object.keys(all.body.results[0]).sort()).toEqual(['created_at', 'followup_uuid', 'has_issue', 'id', 'last_question_index', 'response_completed', 'response_date', 'responses', 'updated_at', 'user', 'uuid']);
    const range = await t.request('GET', `${path}?date_start=2026-03-07&date_end=2026-03-09`, { key: p.adminKey });
    expect(range.body.count).toBe(2);
    expect((await t.request('GET', `${path}?start_date=2026-03-07&end_date=2026-03-09`, { key: p.adminKey })).body.count).toBe(2);
    const otto = await t.request('GET', `${path}?user=${p.other.user.uuid}`, { key: p.manager.key });
    expect(otto.body.results.map((r: { responses: { response: string }[] }) => r.responses[0].response)).toEqual(['otto 2026-03-10', 'otto 2026-03-09', 'otto 2026-03-06']);
    const paged = await t.request('GET', `${path}?date_start=2026-03-01&page_size=4`, { key: p.adminKey });
    expect(paged.body.next).toBe(`${t.url}${path}?date_start=2026-03-01&page_size=4&page=2`);
    expect((await t.request('GET', paged.body.next.replace(t.url, ''), { key: p.adminKey })).body.results).toHaveLength(2);
    expect((await t.request('GET', `${path}?date_start=2026-03-09&date_end=2026-03-01`, { key: p.adminKey })).body.code).toBe('invalid_date_range');
    expect((await t.request('GET', `${path}?user=mia`, { key: p.adminKey })).body).toMatchObject({ code: 'invalid_filter_value', extra: { parameter: 'user' } });
  });

  it("lets a participant read the whole check-in, like its report; anyone else, or anyone when it is private, only their own", async () => {
    const q = checkin.questions;
    const whose = (body: { results: { user: { uuid: string } }[] }) => body.results.map((r) => r.user.uuid).sort();
    await t.request('POST', path, { key: p.member.key, body: { responses: answer(q, ['mia', 'x']) } });
    await t.request('POST', path, { key: p.other.key, body: { responses: answer(q, ['otto', 'x']) } });
    // Mia, a member taking part, reads Otto's answer too, and may filter by him.
    const member = await t.request('GET', path, { key: p.member.key });
    expect(member.status).toBe(200);
    expect(whose(member.body)).toEqual([p.member.user.uuid, p.other.user.uuid].sort());
    const otto = await t.request('GET', `${path}?user=${p.other.user.uuid}`, { key: p.member.key });
    expect(otto.body.results.map((r: { responses: { response: string }[] }) => r.responses[0].response)).toEqual(['otto']);
    // Otto stops taking part: he still reads his own answer, and nobody else's.
    await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { participants: { user_uuids: [p.member.user.uuid, p.admin.uuid] } } });
    const former = await t.request('GET', path, { key: p.other.key });
    expect(former.status).toBe(200);
    expect(whose(former.body)).toEqual([p.other.user.uuid]);
    expect((await t.request('GET', `${path}?user=${p.member.user.uuid}`, { key: p.other.key })).body).toMatchObject({ count: 0, results: [] });
    // A guest who never took part does not see the check-in at all (404, as for an absent one).
    const stranger = await t.request('GET', path, { key: p.guest.key });
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual((await t.request('GET', '/v1/checkins/0190c8f4-0000-7000-8000-0000000000ff/responses/', { key: p.guest.key })).body);
    // A private check-in: members read only their own again; managers and admins still read all.
    await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { privacy: 'private' } });
    expect(whose((await t.request('GET', path, { key: p.member.key })).body)).toEqual([p.member.user.uuid]);
    expect((await t.request('GET', `${path}?user=${p.other.user.uuid}`, { key: p.member.key })).body.count).toBe(0);
    expect((await t.request('GET', path, { key: p.manager.key })).body.count).toBe(2);
    expect((await t.request('GET', path, { key: p.adminKey })).body.count).toBe(2);
  });

  it('hides the author of an anonymous check-in in every read and in its events', async () => {
    const anon = await create({ name: 'Pulse', is_anonymous: true });
    const anonPath = `/v1/checkins/${anon.uuid}/responses/`;
    const posted = await t.request('POST', anonPath, { key: p.member.key, body: { responses: answer(anon.questions, ['a', 'b', 'blocked by legal']) } });
    expect(posted.status).toBe(201);
    expect(posted.body.user).toBeNull();
    expect((await t.request('PUT', anonPath, { key: p.member.key, body: { responses: [{ index: 0, response: 'c' }] } })).body.user).toBeNull();
    const history = await t.request('GET', anonPath, { key: p.adminKey });
    expect(history.body.results.map((r: { user: unknown }) => r.user)).toEqual([null]);
    expect(JSON.stringify(history.body)).not.toContain(p.member.user.uuid);
    await t.request('POST', anonPath, { key: p.other.key, body: { responses: answer(anon.questions, ['d', 'e']) } });
    // A participant reads every answer of the check-in, none with its author; naming someone else stays a 400.
    const asMember = await t.request('GET', anonPath, { key: p.member.key });
    expect(asMember.body.results.map((r: { user: unknown }) => r.user)).toEqual([null, null]);
    expect(JSON.stringify(asMember.body)).not.toContain(p.other.user.uuid);
    expect((await t.request('GET', `${anonPath}?user=${p.other.user.uuid}`, { key: p.member.key })).body.code).toBe('invalid_filter_value');
    const byUser = await t.request('GET', `${anonPath}?user=${p.member.user.uuid}`, { key: p.adminKey });
    expect(byUser.status).toBe(400);
    expect(byUser.body.code).toBe('invalid_filter_value');
    const pending = await t.request('GET', '/v1/checkins/?include_summary=true&include_pending_users=true&search=pulse', { key: p.adminKey });
    expect(pending.body.results[0]).toMatchObject({ summary: { responded: 2, pending: 1 }, pending_users: [] });
    await t.request('DELETE', anonPath, { key: p.member.key });
    const recorded = (await events()).filter((e) => e.payload.followup.uuid === anon.uuid);
    expect(recorded.map((e) => e.event)).toEqual(['followups.response.completed', 'followups.response.updated', 'followups.response.completed', 'followups.response.deleted']);
    for (const e of recorded) {
      expect(e.payload.user).toBeNull();
      expect(e.payload.is_anonymous).toBe(true);
      expect(JSON.stringify(e.payload)).not.toContain(p.member.user.uuid);
      expect(JSON.stringify(e.payload)).not.toContain(p.other.user.uuid);
    }
  });
});
