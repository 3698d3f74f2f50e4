import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

/** The create body of CONTRACT §12, as existing clients send it. */
const standupBody = (p: People, extra: Record<string, unknown> = {}) => ({
  name: 'Daily stand-up',
  schedule: { days: [1, 2, 3, 4, 5], time: '09:30', timezone: 'America/Bogota' },
  participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid] },
  questions: [
    { question_type: 'text', question: 'What did you do yesterday?', short_question: 'Yesterday' },
    { question_type: 'text', question: 'What will you do today?' },
    { question_type: 'text', question: 'Anything blocking you?', required: false, is_blocker: true },
    { question_type: 'multiple_choice', question: 'How do you feel?', options: ['Great', 'Okay', 'Meh'], required: false },
  ],
  report_channels: ['C123', { id: 'C456', name: 'standups', platform: 'slack', type: 'channel' }],
  ...extra,
});

describe('Check-ins: set-up, questions, list (CONTRACT §7, §12)', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  it('creates a check-in from the client body (201 with uuid and id) and reads it back in full', async () => {
    const created = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: standupBody(p, { allow_past_responses: true, reminders_max_count: 2, custom_template_intro: 'Hi!', generate_short_question: true }) });
    expect(created.status).toBe(201);
    const uuid = created.body.uuid;
    expect(created.body.id).toBe(uuid);
    const detail = await t.request('GET', `/v1/checkins/${uuid}/detail/`, { key: p.adminKey });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      uuid, id: uuid, name: 'Daily stand-up', active: true, is_archived: false, frequency_type: 'daily',
      frequency_on_days: [1, 2, 3, 4, 5],
      schedule: { days: [1, 2, 3, 4, 5], time: '09:30', timezone: 'America/Bogota' },
      is_anonymous: false, template_uuid: null, participants_count: 2,
      allow_past_responses: true, allow_future_responses: false, reminders_max_count: 2, custom_template_intro: 'Hi!',
      participants: { users: expect.arrayContaining([{ uuid: p.member.user.uuid, full_name: 'Mia Member' }]), teams: [] },
      report_channels: [
        { id: 'C123', name: null, platform: null, type: null },
        { id: 'C456', name: 'standups', platform: 'slack', type: 'channel' },
      ],
      created_by: { uuid: p.admin.uuid, full_name: 'Ada Admin' },
    });
    expect(detail.body.questions.map((q: { index: number; question_type: string; is_blocker: boolean }) => [q.index, q.question_type, q.is_blocker])).toEqual([
      [0, 'text', false], [1, 'text', false], [2, 'text', true], [3, 'multiple_choice', false],
    ]);
    expect(detail.body.questions[3].choices).toEqual([{ label: 'Great', value: 'Great' }, { label: 'Okay', value: 'Okay' }, { label: 'Meh', value: 'Meh' }]);
    expect(detail.body.questions[0].short_question).toBe('Yesterday');
    expect(detail.body.questions[1].short_question).toBe('What will you do today'); // generated
    expect((await t.request('GET', `/v1/checkins/${uuid}/`, { key: p.adminKey })).body).toEqual(detail.body);
    expect((await t.request('GET', `/v1/followups/${uuid}/detail/`, { key: p.adminKey })).body).toEqual(detail.body);
  });

  it('counts schedule.days from 0 = Sunday and shows frequency_on_days as ISO weekdays (7 = Sunday)', async () => {
    const weekend = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'Weekend', schedule: { days: [0, 6], time: '10:00', timezone: 'Europe/Madrid' } } });
    expect(weekend.body.schedule.days).toEqual([0, 6]);
    expect(weekend.body.frequency_on_days).toEqual([6, 7]);
    const iso = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'ISO', frequency_on_days: [7, 1] } });
    expect(iso.body.schedule).toEqual({ days: [0, 1], time: '09:00', timezone: 'UTC' });
    const clash = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'x', schedule: { days: [0] }, frequency_on_days: [1] } });
    expect(clash.status).toBe(400);
    expect(clash.body).toHaveProperty('frequency_on_days');
    // Without questions the check-in takes the daily stand-up template's.
    expect(weekend.body.questions.map((q: { short_question: string }) => q.short_question)).toEqual(['Completed', 'In progress', 'Blockers']);
  });

  it('validates the create body: field map, unknown fields (nested too), participants of the organization', async () => {
    const bad = await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: { name: '', schedule: { days: [7], time: '25:00', timezone: 'Nowhere/City' }, questions: [{ question_type: 'essay', question: 'x' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      name: ['Ensure this field has at least 1 characters.', 'This field is required.'],
      'schedule.days.0': ['Ensure this value is less than or equal to 6.'],
      'schedule.time': ['Must be a time as HH:MM (24-hour).'],
      'schedule.timezone': ['Must be an IANA time zone, for example Europe/Madrid.'],
      'questions.0.question_type': ['Must be one of: text, multiple_choice, boolean, numeric.'],
    });
    const unknown = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'x', schedule: { days: [1], hour: 9 } } });
    expect(unknown.body).toEqual({ detail: 'Unknown field: schedule.hour.', code: 'unknown_field', extra: { parameter: 'schedule.hour' } });
    const options = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'x', questions: [{ question_type: 'multiple_choice', question: 'Pick', options: ['one'] }, { question_type: 'text', question: 'Say', options: ['a', 'b'] }] } });
    expect(options.body).toEqual({ 'questions.0.options': ['A multiple-choice question needs at least 2 options.'], 'questions.1.options': ['Only multiple-choice questions take options.'] });
    const globex = await seedPeople(t, { name: 'Globex' });
    const foreign = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'x', participants: { user_uuids: [globex.member.user.uuid], team_uuids: [MISSING] } } });
    expect(foreign.body).toEqual({ 'participants.user_uuids.0': ['No user with this id in your organization.'], 'participants.team_uuids.0': ['No team with this id in your organization.'] });
    const dates = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'x', start_on: '2026-04-01', end_on: '2026-03-01' } });
    expect(dates.body).toEqual({ end_on: ['Must be on or after start_on.'] });
    expect((await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'x', start_on: '2026-02-30' } })).body).toEqual({ start_on: ['Must be a date as YYYY-MM-DD.'] });
  });

  it('lets admins and managers set up check-ins; members and guests get 403, or 404 where they do not take part', async () => {
    const { body: checkin } = await t.request('POST', '/v1/checkins/create/', { key: p.manager.key, body: standupBody(p) });
    expect(checkin.uuid).toBeDefined();
    for (const who of [p.member, p.guest]) {
      const create = await t.request('POST', '/v1/checkins/create/', { key: who.key, body: { name: 'mine' } });
      expect(create.status).toBe(403);
      expect(create.body.code).toBe('org_manager_required');
    }
    // The member takes part: they can read it but not change it.
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/`, { key: p.member.key })).status).toBe(200);
    for (const [method, path, body] of [
      ['PATCH', `/v1/checkins/${checkin.uuid}/config/`, { name: 'x' }],
      ['DELETE', `/v1/checkins/${checkin.uuid}/archive/`, undefined],
      ['POST', `/v1/checkins/${checkin.uuid}/questions/`, { question_type: 'text', question: 'x' }],
      ['PATCH', `/v1/checkins/${checkin.uuid}/questions/${checkin.questions[0].uuid}/`, { question: 'x' }],
      ['DELETE', `/v1/checkins/${checkin.uuid}/questions/${checkin.questions[0].uuid}/delete/`, undefined],
      ['PUT', `/v1/checkins/${checkin.uuid}/questions/reorder/`, { question_uuids: [] }],
    ] as const) {
      const res = await t.request(method, path, { key: p.member.key, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('org_manager_required');
    }
    // The guest does not take part: the check-in is as absent as a missing one.
    const missing = await t.request('GET', `/v1/checkins/${MISSING}/`, { key: p.guest.key });
    const hidden = await t.request('GET', `/v1/checkins/${checkin.uuid}/`, { key: p.guest.key });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
    expect((await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.guest.key, body: { name: 'x' } })).status).toBe(404);
  });

  it('never shows another organization\'s check-in (404, same body as absent) on any check-in path', async () => {
    const { body: checkin } = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: standupBody(p) });
    const globex = await seedPeople(t, { name: 'Globex' });
    const missing = await t.request('GET', `/v1/checkins/${MISSING}/`, { key: globex.adminKey });
    const q = checkin.questions[0].uuid;
    for (const [method, path, body] of [
      ['GET', `/v1/checkins/${checkin.uuid}/`, undefined],
      ['GET', `/v1/followups/${checkin.uuid}/detail/`, undefined],
      ['PATCH', `/v1/checkins/${checkin.uuid}/config/`, { name: 'x' }],
      ['DELETE', `/v1/checkins/${checkin.uuid}/archive/`, undefined],
      ['POST', `/v1/checkins/${checkin.uuid}/questions/`, { question_type: 'text', question: 'x' }],
      ['PATCH', `/v1/checkins/${checkin.uuid}/questions/${q}/`, { question: 'x' }],
      ['DELETE', `/v1/checkins/${checkin.uuid}/questions/${q}/delete/`, undefined],
      ['PUT', `/v1/checkins/${checkin.uuid}/questions/reorder/`, { question_uuids: [q] }],
      ['GET', `/v1/checkins/${checkin.uuid}/responses/`, undefined],
      ['POST', `/v1/checkins/${checkin.uuid}/responses/`, { responses: [] }],
      ['PUT', `/v1/checkins/${checkin.uuid}/responses/`, { responses: [] }],
      ['DELETE', `/v1/checkins/${checkin.uuid}/responses/`, undefined],
    ] as const) {
      const res = await t.request(method, path, { key: globex.adminKey, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    expect((await t.request('GET', '/v1/checkins/', { key: globex.adminKey })).body.count).toBe(0);
  });

  it('changes settings, schedule, participants and questions with PATCH …/config/ (a question uuid keeps its identity)', async () => {
    const { body: checkin } = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: standupBody(p) });
    const team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Platform' } })).body;
    await t.request('POST', `/v1/teams/${team.uuid}/member/`, { key: p.adminKey, body: { members: [{ uuid: p.guest.user.uuid }, { uuid: p.member.user.uuid }] } });
    const kept = checkin.questions[1];
    const res = await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, {
      key: p.manager.key,
      body: {
        name: 'Stand-up', is_anonymous: true, schedule: { days: [1, 3], time: '08:00' }, reminder_tone: 'friendly',
        participants: { user_uuids: [p.other.user.uuid], team_uuids: [team.uuid] },
        questions: [{ uuid: kept.uuid, question_type: 'text', question: 'Today?' }, { question_type: 'boolean', question: 'On track?' }],
        report_channels: [],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Stand-up', is_anonymous: true, schedule: { days: [1, 3], time: '08:00', timezone: 'America/Bogota' }, frequency_on_days: [1, 3],
      reminder_tone: 'friendly', participants_count: 3, report_channels: [],
      participants: { users: [{ uuid: p.other.user.uuid, full_name: 'Otto Member' }], teams: [{ uuid: team.uuid, name: 'Platform' }] },
    });
    expect(res.body.questions.map((q: { uuid: string; index: number; question: string }) => [q.index, q.question])).toEqual([[0, 'Today?'], [1, 'On track?']]);
    expect(res.body.questions[0].uuid).toBe(kept.uuid);
    // The guest takes part through the team now.
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/`, { key: p.guest.key })).status).toBe(200);
    const unknownQuestion = await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { questions: [{ uuid: MISSING, question_type: 'text', question: 'x' }] } });
    expect(unknownQuestion.body).toEqual({ 'questions.0.uuid': ['No question with this id in the check-in.'] });
  });

  it('adds, edits, deletes and reorders questions ({question_uuids} and {order})', async () => {
    const { body: checkin } = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: standupBody(p) });
    const base = `/v1/checkins/${checkin.uuid}/questions/`;
    const added = await t.request('POST', base, { key: p.adminKey, body: { question_type: 'numeric', question: 'Hours focused?', index: 0, required: false } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ index: 0, question: 'Hours focused?', question_type: 'numeric', required: false, is_blocker: false, choices: [] });
    const edited = await t.request('PATCH', `${base}${checkin.questions[3].uuid}/`, { key: p.adminKey, body: { options: ['Yes', 'No'] } });
    expect(edited.body.choices).toEqual([{ label: 'Yes', value: 'Yes' }, { label: 'No', value: 'No' }]);
    const toText = await t.request('PATCH', `${base}${checkin.questions[3].uuid}/`, { key: p.adminKey, body: { question_type: 'text' } });
    expect(toText.body.choices).toEqual([]);
    expect((await t.request('PATCH', `${base}${checkin.questions[0].uuid}/`, { key: p.adminKey, body: { question_type: 'multiple_choice' } })).body).toEqual({ options: ['A multiple-choice question needs at least 2 options.'] });
    const deleted = await t.request('DELETE', `${base}${checkin.questions[1].uuid}/delete/`, { key: p.adminKey });
    expect(deleted.status).toBe(204);
    let detail = (await t.request('GET', `/v1/checkins/${checkin.uuid}/detail/`, { key: p.adminKey })).body;
    expect(detail.questions.map((q: { index: number }) => q.index)).toEqual([0, 1, 2, 3]);
    const reversed = detail.questions.map((q: { uuid: string }) => q.uuid).reverse();
    const reorder = await t.request('PUT', `${base}reorder/`, { key: p.adminKey, body: { question_uuids: reversed } });
    expect(reorder.status).toBe(200);
    expect(reorder.body.questions.map((q: { uuid: string }) => q.uuid)).toEqual(reversed);
    const byOrder = await t.request('PUT', `/v1/followups/${checkin.uuid}/questions/reorder/`, { key: p.adminKey, body: { order: [...reversed].reverse() } });
    expect(byOrder.body.questions.map((q: { uuid: string }) => q.uuid)).toEqual([...reversed].reverse());
    const partial = await t.request('PUT', `${base}reorder/`, { key: p.adminKey, body: { question_uuids: reversed.slice(1) } });
    expect(partial.status).toBe(400);
    expect(partial.body).toEqual({ question_uuids: ['Name every question of the check-in exactly once.'] });
    expect((await t.request('PATCH', `${base}${MISSING}/`, { key: p.adminKey, body: { question: 'x' } })).status).toBe(404);
    detail = (await t.request('GET', `/v1/checkins/${checkin.uuid}/detail/`, { key: p.adminKey })).body;
    for (const q of detail.questions.slice(1)) await t.request('DELETE', `${base}${q.uuid}/delete/`, { key: p.adminKey });
    const last = await t.request('DELETE', `${base}${detail.questions[0].uuid}/delete/`, { key: p.adminKey });
    expect(last.body).toEqual({ detail: 'A check-in keeps at least one question.', code: 'last_question' });
  });

  it('lists check-ins (members: theirs), /v1/followups/ answers the same, archived ones only on request', async () => {
    const a = (await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: standupBody(p) })).body;
    const b = (await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { name: 'Retro', participants: { user_uuids: [p.guest.user.uuid] } } })).body;
    const admin = await t.request('GET', '/v1/checkins/', { key: p.adminKey });
    expect(admin.body.count).toBe(2);
    expect(admin.body.results[0]).toEqual({
      uuid: a.uuid, id: a.uuid, name: 'Daily stand-up', active: true, is_archived: false, frequency_type: 'daily',
      frequency_on_days: [1, 2, 3, 4, 5], schedule: { days: [1, 2, 3, 4, 5], time: '09:30', timezone: 'America/Bogota' },
      is_anonymous: false, template_uuid: null, participants_count: 2, start_on: null, end_on: null, created_at: '2026-03-10T15:00:00.000Z',
    });
    expect((await t.request('GET', '/v1/followups/', { key: p.adminKey })).body).toEqual({ ...admin.body, next: null, previous: null });
    expect((await t.request('GET', '/v1/checkins/', { key: p.member.key })).body.results.map((c: { name: string }) => c.name)).toEqual(['Daily stand-up']);
    expect((await t.request('GET', '/v1/checkins/', { key: p.guest.key })).body.results.map((c: { name: string }) => c.name)).toEqual(['Retro']);
    expect((await t.request('GET', '/v1/checkins/?search=ret', { key: p.adminKey })).body.count).toBe(1);
    expect((await t.request('DELETE', `/v1/checkins/${b.uuid}/archive/`, { key: p.adminKey })).status).toBe(204);
    expect((await t.request('GET', '/v1/checkins/', { key: p.adminKey })).body.count).toBe(1);
    const all = await t.request('GET', '/v1/checkins/?include_archived=true', { key: p.adminKey });
    expect(all.body.results.find((c: { uuid: string }) => c.uuid === b.uuid).is_archived).toBe(true);
    const paged = await t.request('GET', '/v1/checkins/?include_archived=true&page_size=1', { key: p.adminKey });
    expect(paged.body.next).toBe(`${t.url}/v1/checkins/?include_archived=true&page_size=1&page=2`);
    expect((await t.request('GET', '/v1/checkins/?date=2026-13-01', { key: p.adminKey })).body.code).toBe('invalid_date_range');
  });

  it('adds the day summary with include_summary and the pending people with include_pending_users', async () => {
    const { body: checkin } = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: standupBody(p) });
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: checkin.questions.slice(0, 2).map((q: { uuid: string }) => ({ uuid: q.uuid, response: 'ok' })) } });
    const mine = await t.request('GET', '/v1/checkins/?include_summary=true&include_pending_users=true', { key: p.member.key });
    expect(mine.body.results[0]).toMatchObject({
      response_completed: true,
      summary: { date: '2026-03-10', participants: 2, responded: 1, pending: 1 },
      pending_users: [{ uuid: p.other.user.uuid, full_name: 'Otto Member' }],
    });
    const other = await t.request('GET', '/v1/checkins/?include_summary=true', { key: p.other.key });
    expect(other.body.results[0].response_completed).toBe(false);
    expect(other.body.results[0]).not.toHaveProperty('pending_users');
    const yesterday = await t.request('GET', '/v1/checkins/?include_summary=true&date=2026-03-09', { key: p.adminKey });
    expect(yesterday.body.results[0].summary).toEqual({ date: '2026-03-09', participants: 2, responded: 0, pending: 2, away: 0, holiday: 0, existed: false });
    expect((await t.request('GET', '/v1/checkins/', { key: p.adminKey })).body.results[0]).not.toHaveProperty('summary');
  });
});
