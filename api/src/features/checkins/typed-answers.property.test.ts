import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';

/**
 * Answers to typed questions from generated values (issue 36): whatever comes in, the answer is never a 500, a
 * refused value leaves nothing saved, and an accepted one is saved as the model says its type keeps it.
 */

const QUESTIONS = [
  { question_type: 'text', question: 'Text?', required: false },
  { question_type: 'boolean', question: 'Yes or no?', required: false },
  { question_type: 'numeric', question: 'Hours?', min: 0, max: 12, required: false },
  { question_type: 'numeric', question: 'Week?', presentation: 'scale', min: 0, max: 10, required: false },
  { question_type: 'numeric', question: 'Mood?', presentation: 'mood', required: false },
  { question_type: 'multiple_choice', question: 'One?', options: ['a', 'b', 'c'], required: false },
  { question_type: 'multiple_choice', question: 'Several?', options: ['a', 'b', 'c'], multiple: true, required: false },
  { question_type: 'text', question: 'Only if yes?', required: false, logic: { show_if: { question_index: 1, equals: true } } },
];

/** What the model keeps for `value` as the answer to question `i`: the stored value, `null` (no answer), or 'refused'. */
function model(i: number, value: unknown): unknown {
  const inRange = (n: unknown, min: number, max: number, whole: boolean) => typeof n === 'number' && Number.isFinite(n) && n >= min && n <= max && (!whole || Number.isInteger(n));
  switch (i) {
    case 0: case 7: return typeof value === 'string' && value.length <= 10_000 ? value : 'refused';
    case 1: return typeof value === 'boolean' ? value : 'refused';
    case 2: return inRange(value, 0, 12, false) ? (value === 0 ? 0 : value) : 'refused';
    case 3: return inRange(value, 0, 10, true) ? (value === 0 ? 0 : value) : 'refused';
    case 4: return inRange(value, 1, 5, true) ? value : 'refused';
    case 5: {
      const picks = Array.isArray(value) ? value : [value];
      if (!picks.every((v) => v === 'a' || v === 'b' || v === 'c')) return 'refused';
      return picks.length === 0 ? [] : picks.length === 1 ? picks[0] : 'refused';
    }
    default: {
      const picks = Array.isArray(value) ? value : [value];
      if (!picks.every((v) => v === 'a' || v === 'b' || v === 'c')) return 'refused';
      return ['a', 'b', 'c'].filter((c) => picks.includes(c));
    }
  }
}

const choice = fc.constantFrom('a', 'b', 'c', 'd', 'A', '');
const value = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.boolean(),
  fc.integer({ min: -3, max: 14 }),
  fc.double({ min: -20, max: 20 }),
  fc.constantFrom(Number.MAX_VALUE, -0, 0.5, 1e-9),
  choice,
  fc.array(choice, { maxLength: 4 }),
  fc.constantFrom(null, {}, [1], [[]], { a: 1 }),
);

describe('Typed answers from generated values', () => {
  let t: TestApp;
  let p: People;
  let checkin: { uuid: string; questions: { uuid: string }[] };
  beforeAll(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    checkin = (await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey, body: { name: 'Typed', schedule: { days: [0, 1, 2, 3, 4, 5, 6] }, participants: { user_uuids: [p.member.user.uuid] }, questions: QUESTIONS },
    })).body;
  });
  afterAll(async () => t.close());

  it('never answers 500, never keeps a refused value, and keeps an accepted one as its type says', async () => {
    const path = `/v1/checkins/${checkin.uuid}/responses/`;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: QUESTIONS.length - 1 }), value), { minLength: 1, maxLength: 5 }), async (given) => {
        await t.request('DELETE', path, { key: p.member.key });
        const seen = new Set<number>();
        const answers = given.filter(([i]) => !seen.has(i) && seen.add(i));
        const res = await t.request('POST', path, { key: p.member.key, body: { responses: answers.map(([i, v]) => ({ uuid: checkin.questions[i].uuid, response: v })) } });
        expect(res.status).toBeLessThan(500);
        const expected = answers.map(([i, v]) => [i, v === null ? null : model(i, v)] as const);
        const refused = expected.filter(([, m]) => m === 'refused');
        if (refused.length) {
          expect(res.status, JSON.stringify(res.body)).toBe(400);
          expect(Object.keys(res.body).sort()).toEqual(answers.flatMap(([i, v], at) => (v !== null && model(i, v) === 'refused' ? [`responses.${at}.response`] : [])).sort());
          expect(await t.db('checkin_responses').where({ checkin_uuid: checkin.uuid })).toHaveLength(0);
          return;
        }
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        // The conditional question keeps an answer only when "Yes or no?" was answered yes.
        const shown = expected.some(([i, m]) => i === 1 && m === true);
        const kept = expected.filter(([i, m]) => m !== null && (i !== 7 || shown)).sort((a, b) => a[0] - b[0]);
        expect(res.body.responses.map((r: { index: number; response: unknown }) => [r.index, r.response])).toEqual(kept.map(([i, m]) => [i, m]));
        const [row] = (await t.request('GET', path, { key: p.member.key })).body.results;
        expect(row.responses).toEqual(res.body.responses);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
