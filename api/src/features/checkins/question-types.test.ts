import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

interface Question { uuid: string; index: number; question: string }

/** Issue 36 items 1 and 2: question types that act as their names say, and questions shown only on a condition. */
describe('Question types and conditions', () => {
  let t: TestApp;
  let p: People;

  const create = async (questions: Record<string, unknown>[]) =>
    t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: { name: 'Weekly', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'America/Bogota' }, participants: { user_uuids: [p.member.user.uuid] }, questions },
    });

  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  it('keeps each type\'s settings and refuses those of another type or out of shape', async () => {
    const created = await create([
      { question_type: 'numeric', question: 'How was your week, from 1 to 5?', presentation: 'scale', min_label: 'Rough', max_label: 'Great' },
      { question_type: 'numeric', question: 'Mood?', presentation: 'mood', required: false },
      { question_type: 'numeric', question: 'Hours of focus?', min: 0, max: 12, required: false },
      { question_type: 'multiple_choice', question: 'Where did you work?', options: ['Home', 'Office', 'Cafe'], multiple: true, required: false },
      { question_type: 'boolean', question: 'Anything blocking you?', is_blocker: true },
      { question_type: 'text', question: 'What blocks you?', logic: { show_if: { question_index: 4, equals: true } } },
    ]);
    expect(created.status).toBe(201);
    const [scale, mood, hours, where, blocked, what] = created.body.questions;
    expect(scale).toMatchObject({ question_type: 'numeric', presentation: 'scale', min: 1, max: 5, min_label: 'Rough', max_label: 'Great', multiple: false, logic: null });
    expect(mood).toMatchObject({ presentation: 'mood', min: 1, max: 5, min_label: null, max_label: null });
    expect(hours).toMatchObject({ presentation: null, min: 0, max: 12 });
    expect(where).toMatchObject({ multiple: true, min: null, max: null, choices: [{ label: 'Home', value: 'Home' }, { label: 'Office', value: 'Office' }, { label: 'Cafe', value: 'Cafe' }] });
    expect(blocked).toMatchObject({ is_blocker: true, question_type: 'boolean' });
    expect(what.logic).toEqual({ show_if: { question_index: 4, equals: true } });

    const bad = await create([
      { question_type: 'text', question: 'A', min: 1, multiple: true },
      { question_type: 'numeric', question: 'B', presentation: 'scale', min: 0, max: 20 },
      { question_type: 'numeric', question: 'C', min: 5, max: 1 },
      { question_type: 'numeric', question: 'D', presentation: 'mood', max: 10 },
      { question_type: 'numeric', question: 'E', min_label: 'low' },
      { question_type: 'boolean', question: 'F', logic: { show_if: { question_index: 6, equals: true } } },
      { question_type: 'text', question: 'G', logic: { show_if: { question_index: 5, equals: 'yes' } } },
      { question_type: 'text', question: 'H', logic: { show_if: { question_index: 'x' } } },
      { question_type: 'numeric', question: 'I', presentation: 'stars' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      'questions.8.presentation': ['Must be one of: scale, mood.'],
    });
    const shape = await create([
      { question_type: 'text', question: 'A', min: 1, multiple: true },
      { question_type: 'numeric', question: 'B', presentation: 'scale', min: 0, max: 20 },
      { question_type: 'numeric', question: 'C', min: 5, max: 1 },
      { question_type: 'numeric', question: 'D', presentation: 'mood', max: 10 },
      { question_type: 'numeric', question: 'E', min_label: 'low' },
      { question_type: 'boolean', question: 'F', logic: { show_if: { question_index: 6, equals: true } } },
      { question_type: 'text', question: 'G', logic: { show_if: { question_index: 5, equals: 'yes' } } },
      { question_type: 'text', question: 'H', logic: { show_if: { question_index: 'x' } } },
    ]);
    expect(shape.status).toBe(400);
    expect(shape.body).toEqual({
      'questions.0.multiple': ['Only multiple-choice questions take multiple.'],
      'questions.0.min': ['Only numeric questions take min, max, presentation and end labels.'],
      'questions.1.presentation': ['A scale has 2 to 11 steps (for example 1 to 5, or 0 to 10).'],
      'questions.2.max': ['Must be at least min.'],
      'questions.3.presentation': ['A mood question is always 1 to 5: leave min and max out.'],
      'questions.4.min_label': ['End labels belong to a scale or mood question (presentation).'],
      'questions.5.logic.show_if.question_index': ['Must be the index of an earlier question.'],
      'questions.6.logic.show_if.equals': ['Question 5 takes true or false.'],
      'questions.7.logic.show_if': ['Must be {"question_index": N, "equals": value}: N an earlier question\'s index, value a string, number or boolean.'],
    });
  });

  it('saves each answer as its type takes it, refuses a bad value naming it, and skips hidden questions', async () => {
    const created = await create([
      { question_type: 'numeric', question: 'Week?', presentation: 'scale', min: 0, max: 10 },
      { question_type: 'numeric', question: 'Mood?', presentation: 'mood', required: false },
      { question_type: 'numeric', question: 'Hours?', min: 0, max: 12, required: false },
      { question_type: 'multiple_choice', question: 'Where?', options: ['Home', 'Office', 'Cafe'], multiple: true, required: false },
      { question_type: 'multiple_choice', question: 'Team?', options: ['Core', 'Web'], required: false },
      { question_type: 'boolean', question: 'Blocked?', is_blocker: true },
      { question_type: 'text', question: 'What blocks you?', logic: { show_if: { question_index: 5, equals: true } } },
    ]);
    const q: Question[] = created.body.questions;
    const path = `/v1/checkins/${created.body.uuid}/responses/`;
    const bad = await t.request('POST', path, {
      key: p.member.key,
      body: { responses: [
        { index: 0, response: 7.5 }, { index: 1, response: 6 }, { index: 2, response: -1 }, { index: 3, response: ['Home', 'Moon'] },
        { index: 4, response: ['Core', 'Web'] }, { index: 5, response: 'no' },
      ] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      'responses.0.response': ['A whole number from 0 to 10.'],
      'responses.1.response': ['A whole number from 1 to 5.'],
      'responses.2.response': ['A number from 0 to 12.'],
      'responses.3.response': ['Must be one of the choices: Home, Office, Cafe.'],
      'responses.4.response': ['Pick one of the choices: Core, Web.'],
      'responses.5.response': ['A yes/no answer is true or false.'],
    });
    // "What blocks you?" is asked only when Blocked? is yes: then it is required.
    const missing = await t.request('POST', path, { key: p.member.key, body: { responses: [{ index: 0, response: 8 }, { index: 5, response: true }] } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ responses: ['The required question at index 6 ("What blocks you?") has no answer.'] });

    const saved = await t.request('POST', path, {
      key: p.member.key,
      body: { responses: [
        { index: 0, response: 8 }, { index: 1, response: 4 }, { index: 2, response: 6.5 }, { index: 3, response: ['Cafe', 'Home', 'Cafe'] },
        { index: 4, response: ['Web'] }, { index: 5, response: false }, { index: 6, response: 'an answer to a hidden question' },
      ] },
    });
    expect(saved.status).toBe(201);
    expect(saved.body.responses).toEqual([
      { uuid: q[0].uuid, index: 0, question: 'Week?', response: 8 },
      { uuid: q[1].uuid, index: 1, question: 'Mood?', response: 4 },
      { uuid: q[2].uuid, index: 2, question: 'Hours?', response: 6.5 },
      { uuid: q[3].uuid, index: 3, question: 'Where?', response: ['Home', 'Cafe'] },
      { uuid: q[4].uuid, index: 4, question: 'Team?', response: 'Web' },
      { uuid: q[5].uuid, index: 5, question: 'Blocked?', response: false },
    ]);
    expect(saved.body).toMatchObject({ response_completed: true, has_issue: false });

    const edited = await t.request('PUT', path, { key: p.member.key, body: { responses: [{ index: 5, response: true }, { index: 6, response: 'Waiting for the API keys' }] } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ response_completed: true, has_issue: true });
    expect(edited.body.responses.slice(5)).toEqual([
      { uuid: q[5].uuid, index: 5, question: 'Blocked?', response: true },
      { uuid: q[6].uuid, index: 6, question: 'What blocks you?', response: 'Waiting for the API keys' },
    ]);
  });

  it('keeps conditions on the question they name when questions move, and refuses to delete a question others wait for', async () => {
    const created = await create([
      { question_type: 'text', question: 'Done?' },
      { question_type: 'boolean', question: 'Blocked?' },
      { question_type: 'text', question: 'What blocks you?', logic: { show_if: { question_index: 1, equals: true } } },
    ]);
    const base = `/v1/checkins/${created.body.uuid}`;
    const [done, blocked, what] = created.body.questions as Question[];
    const added = await t.request('POST', `${base}/questions/`, { key: p.adminKey, body: { question_type: 'text', question: 'Mood?', index: 0 } });
    expect(added.status).toBe(201);
    let detail = (await t.request('GET', `${base}/detail/`, { key: p.adminKey })).body;
    expect(detail.questions.map((x: { question: string; logic: unknown }) => [x.question, x.logic])).toEqual([
      ['Mood?', null], ['Done?', null], ['Blocked?', null], ['What blocks you?', { show_if: { question_index: 2, equals: true } }],
    ]);
    const wrong = await t.request('PUT', `${base}/questions/reorder/`, { key: p.adminKey, body: { question_uuids: [what.uuid, added.body.uuid, done.uuid, blocked.uuid] } });
    expect([wrong.status, wrong.body]).toEqual([400, { question_uuids: ['A question would come before the question its logic.show_if waits for.'] }]);
    const moved = await t.request('PUT', `${base}/questions/reorder/`, { key: p.adminKey, body: { question_uuids: [blocked.uuid, what.uuid, done.uuid, added.body.uuid] } });
    expect(moved.status).toBe(200);
    expect(moved.body.questions[1].logic).toEqual({ show_if: { question_index: 0, equals: true } });
    const refused = await t.request('DELETE', `${base}/questions/${blocked.uuid}/delete/`, { key: p.adminKey });
    expect([refused.status, refused.body]).toEqual([400, {
      detail: 'Question 1 is shown only after an answer to this one: change its logic first.', code: 'question_in_condition', extra: { questions: [what.uuid] },
    }]);
    const badEdit = await t.request('PATCH', `${base}/questions/${what.uuid}/`, { key: p.adminKey, body: { logic: { show_if: { question_index: 0, equals: 'yes' } } } });
    expect([badEdit.status, badEdit.body]).toEqual([400, { 'logic.show_if.equals': ['Question 0 takes true or false.'] }]);
    expect((await t.request('DELETE', `${base}/questions/${done.uuid}/delete/`, { key: p.adminKey })).status).toBe(204);
    detail = (await t.request('GET', `${base}/detail/`, { key: p.adminKey })).body;
    expect(detail.questions[1]).toMatchObject({ question: 'What blocks you?', logic: { show_if: { question_index: 0, equals: true } } });
  });
});
