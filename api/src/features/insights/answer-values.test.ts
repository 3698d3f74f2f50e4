import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { uuidv7 } from '../../lib/ids.ts';

/**
 * checkin_answer_values (migration 1150) follows every write of a response, whoever makes it, through the
 * triggers on checkin_responses: an answer, its edit, its deletion, and a row whose answers are not JSON.
 */
describe('typed answers kept beside the responses', () => {
  let t: TestApp;
  let p: People;
  let checkin: string;
  let q: { uuid: string }[];
  const values = async () =>
    (await t.db('checkin_answer_values').where({ checkin_uuid: checkin }).select('user_uuid', 'response_date', 'question_uuid', 'value_number', 'value_text'))
      .map((row) => ({ ...row, value_number: row.value_number === null ? null : Number(row.value_number) }))
      .sort((a, b) => `${a.question_uuid}${a.value_number}${a.value_text}`.localeCompare(`${b.question_uuid}${b.value_number}${b.value_text}`));

  beforeAll(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    const created = await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: {
        name: 'Typed', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'UTC' }, participants: { user_uuids: [p.member.user.uuid] },
        questions: [
          { question_type: 'text', question: 'Notes?' },
          { question_type: 'numeric', question: 'Hours?' },
          { question_type: 'multiple_choice', question: 'Where?', options: ['Office', 'Home'] },
          { question_type: 'boolean', question: 'Blocked?', is_blocker: true },
        ],
      },
    });
    checkin = created.body.uuid;
    q = created.body.questions;
  });
  afterAll(async () => t.close());

  it('writes, rewrites and removes the typed answers with their response; text answers stay out', async () => {
    const body = (hours: number, where: string, blocked: boolean) => ({ responses: [{ index: 0, response: 'Some notes' }, { index: 1, response: hours }, { index: 2, response: where }, { index: 3, response: blocked }] });
    expect((await t.request('POST', `/v1/checkins/${checkin}/responses/`, { key: p.member.key, body: body(7.5, 'Home', true) })).status).toBe(201);
    const row = (n: number | null, text: string | null, question: number) => ({ user_uuid: p.member.user.uuid, response_date: '2026-03-10', question_uuid: q[question].uuid, value_number: n, value_text: text });
    const expected = (hours: number, where: string, blocked: number) => [row(hours, null, 1), row(null, where, 2), row(blocked, null, 3)].sort((a, b) => `${a.question_uuid}${a.value_number}${a.value_text}`.localeCompare(`${b.question_uuid}${b.value_number}${b.value_text}`));
    expect(await values()).toEqual(expected(7.5, 'Home', 1));
    expect((await t.request('PUT', `/v1/checkins/${checkin}/responses/`, { key: p.member.key, body: body(3, 'Office', false) })).status).toBe(200);
    expect(await values()).toEqual(expected(3, 'Office', 0));
    expect((await t.request('DELETE', `/v1/checkins/${checkin}/responses/`, { key: p.member.key })).status).toBe(204);
    expect(await values()).toEqual([]);
  });

  it('keeps a response whose answers are not JSON (a write from elsewhere) without typed answers, never failing it', async () => {
    const stamp = '2026-03-09T10:00:00.000Z';
    const uuid = uuidv7();
    await t.db('checkin_responses').insert({
      uuid, organization_uuid: p.org.uuid, checkin_uuid: checkin, user_uuid: p.member.user.uuid, response_date: '2026-03-09', answers: '{not json',
      response_completed: true, has_issue: false, last_question_index: null, created_at: stamp, updated_at: stamp,
    });
    expect(await values()).toEqual([]);
    await t.db('checkin_responses').where({ uuid }).update({ answers: JSON.stringify([{ uuid: q[1].uuid, index: 1, question: 'Hours?', response: 2 }, 'junk', { uuid: q[2].uuid, response: ['Office', 'Home'] }]) });
    expect((await values()).map((v) => `${v.value_number}|${v.value_text}`).sort()).toEqual(['2|null', 'null|Home', 'null|Office']);
  });
});
