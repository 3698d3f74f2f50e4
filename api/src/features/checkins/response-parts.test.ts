import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople, subscribeToAllEvents } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { bool } from '../../lib/json.ts';
import { evaluate } from './answer-rules.ts';
import type { Answer } from './responses-service.ts';
import { questionsOf } from './repository.ts';
import { mergeIntoTodaysResponse } from './standup.ts';
import type { MergeLines } from './standup.ts';
import type { QuestionRow } from '../../db/tables.ts';

const SUFFIX = ' (co-authored with deploy-bot)';

/**
 * The merge as it was when every merge rewrote the whole snapshot (CONTRACT §6): the model the appended parts
 * must be indistinguishable from, answers and flags alike.
 */
function rewrittenAnswers(questions: QuestionRow[], previous: Answer[], written: Record<string, string[]>): Answer[] {
  return questions
    .map((q) => {
      const added = written[q.uuid];
      const before = previous.find((a) => a.uuid === q.uuid);
      if (!added) return before ? { ...before, index: q.position, question: q.question } : null;
      const kept = typeof before?.response === 'string' ? before.response.trimEnd() : '';
      return { uuid: q.uuid, index: q.position, question: q.question, response: kept !== '' ? `${kept}\n${added.join('\n')}` : added.join('\n') };
    })
    .filter((a): a is Answer => a !== null);
}

// Mostly the phrases that decide has_issue ("no blockers" ones, blank ones), so the property meets them often.
const line = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('none', 'No blockers', 'n/a', 'all good.', '  ', '', 'Waiting on keys', '-') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const lines = fc.option(fc.oneof(fc.array(line, { maxLength: 3 }), line), { nil: undefined });
const merge = fc.record({ completed: lines, in_progress: lines, blockers: lines, content: lines, suffix: fc.boolean() });
const questionFlags = fc.record({ required: fc.boolean(), blocker: fc.boolean(), text: fc.boolean() });

describe('Appended response parts: readers see exactly what a full rewrite gave', () => {
  let t: TestApp;
  let p: People;
  beforeAll(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    await subscribeToAllEvents(t, p.adminKey);
  });
  afterAll(async () => t.close());

  const history = async (checkinUuid: string) => (await t.request('GET', `/v1/checkins/${checkinUuid}/responses/`, { key: p.member.key })).body.results;
  const lastEvent = async () => JSON.parse((await t.db('organization_events').where('event', 'like', 'followups.response.%').orderBy('uuid', 'desc').first())!.payload);

  it('answers, flags and the event payload equal the rewrite model, over any merges, edits and question changes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(questionFlags, { minLength: 1, maxLength: 4 }),
        fc.option(fc.array(fc.oneof(fc.constant(''), fc.constant('none'), line), { minLength: 4, maxLength: 4 }), { nil: undefined }),
        fc.array(fc.oneof(merge, fc.constant('rename' as const), fc.constant('edit' as const)), { minLength: 1, maxLength: 8 }),
        async (flags, initial, steps) => {
          run++;
          const created = (await t.request('POST', '/v1/checkins/create/', {
            key: p.adminKey,
            body: {
              name: `Run ${run}`, schedule: { days: [0, 1, 2, 3, 4, 5, 6] }, participants: { user_uuids: [p.member.user.uuid] },
              questions: flags.map((f, i) => (f.text
                ? { question_type: 'text', question: `Q${i}`, required: f.required, is_blocker: f.blocker }
                : { question_type: 'boolean', question: `Q${i}`, required: f.required, is_blocker: f.blocker })),
            },
          }));
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          const checkin = (await t.db('checkins').where({ uuid: created.body.uuid }).first())!;
          let questions = await questionsOf(t.db, checkin.uuid);
          let model: Answer[] = [];
          if (initial) {
            const responses = questions.map((q, i) => ({ uuid: q.uuid, response: q.question_type === 'text' ? initial[i] : i % 2 === 0 }));
            const posted = await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses } });
            // A direct answer must answer every required question (blank text is none): otherwise nothing is written.
            const unanswered = responses.filter((r, i) => bool(questions[i].required) && typeof r.response === 'string' && r.response.trim() === '');
            expect(posted.status).toBe(unanswered.length ? 400 : 201);
            if (!unanswered.length) model = posted.body.responses;
          }
          for (const step of steps) {
            if (step === 'rename') {
              // A question edited mid-day: the next merge renders every answer with the new text, as before.
              await t.request('PATCH', `/v1/checkins/${checkin.uuid}/questions/${questions[0].uuid}/`, { key: p.adminKey, body: { question: `${questions[0].question}!` } });
              questions = await questionsOf(t.db, checkin.uuid);
              continue;
            }
            if (step === 'edit') {
              if (model.length === 0) continue;
              // The person edits their answer: the parts are folded into what they edit, then dropped.
              const edited = await t.request('PUT', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [] } });
              // An edit is held to the required questions too: merges may have left some unanswered.
              if (!evaluate(questions, model).completed) {
                expect(edited.status).toBe(400);
                continue;
              }
              expect(edited.status).toBe(200);
              const byUuid = new Map(model.map((a) => [a.uuid, a.response]));
              expect(edited.body.responses).toEqual(questions.filter((q) => byUuid.has(q.uuid)).map((q) => ({ uuid: q.uuid, index: q.position, question: q.question, response: byUuid.get(q.uuid) })));
              expect(Number((await t.db('checkin_response_parts').where({ response_uuid: edited.body.uuid }).count({ n: '*' }))[0].n)).toBe(0);
              model = edited.body.responses;
              continue;
            }
            const input: MergeLines = { completed: step.completed, in_progress: step.in_progress, blockers: step.blockers, content: Array.isArray(step.content) ? step.content.join('\n') : step.content };
            const result = await t.db.transaction((trx) =>
              mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: { checkin, questions, date: '2026-03-10' }, lines: input, suffix: step.suffix ? SUFFIX : '', now: t.clock.now() }),
            );
            if (!result) continue;
            model = rewrittenAnswers(questions, model, result.written);
            const [row] = await history(checkin.uuid);
            expect(row.responses).toEqual(model);
            const flagsNow = evaluate(questions, model);
            expect({ completed: row.response_completed, issue: row.has_issue }).toEqual({ completed: flagsNow.completed, issue: flagsNow.hasIssue });
            const event = await lastEvent();
            expect(event).toMatchObject({ uuid: row.uuid, responses: model, response_completed: flagsNow.completed, has_issue: flagsNow.hasIssue });
          }
          await t.request('DELETE', `/v1/checkins/${checkin.uuid}/archive/`, { key: p.adminKey });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a merge into an existing answer appends one part per question and leaves the stored answers as they were', async () => {
    const created = (await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: { name: 'Parts', schedule: { days: [2] }, participants: { user_uuids: [p.member.user.uuid] }, questions: [{ question_type: 'text', question: 'Done?' }, { question_type: 'text', question: 'Next?' }] },
    })).body;
    const checkin = (await t.db('checkins').where({ uuid: created.uuid }).first())!;
    const questions = await questionsOf(t.db, checkin.uuid);
    const standup = { checkin, questions, date: '2026-03-10' };
    const mergeOne = (n: number) => t.db.transaction((trx) =>
      mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: standup, lines: { completed: [`Task ${n}`], in_progress: [`Next ${n}`] }, suffix: SUFFIX, now: t.clock.now() }));
    const first = (await mergeOne(0))!;
    for (let n = 1; n <= 50; n++) await mergeOne(n);
    const stored = (await t.db('checkin_responses').where({ uuid: first.response.uuid }).first())!;
    expect(stored.answers).toBe(first.response.answers);
    expect(Number((await t.db('checkin_response_parts').where({ response_uuid: first.response.uuid }).count({ n: '*' }))[0].n)).toBe(100);
    const [row] = await history(checkin.uuid);
    expect(row.responses[0].response.split('\n')).toHaveLength(51);
    expect(row.responses[1].response.split('\n').at(-1)).toBe(`Next 50${SUFFIX}`);
    // Resetting the day deletes the parts with the response, and its event still carries the whole answer.
    const reset = await t.request('DELETE', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key });
    expect(reset.status).toBeLessThan(300);
    expect((await lastEvent()).responses).toEqual(row.responses);
    expect(Number((await t.db('checkin_response_parts').where({ response_uuid: first.response.uuid }).count({ n: '*' }))[0].n)).toBe(0);
  });

  it('completes a response whose required answers came from parts and from this merge', async () => {
    const created = (await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: {
        name: 'Required', schedule: { days: [2] }, participants: { user_uuids: [p.member.user.uuid] },
        questions: [{ question_type: 'text', question: 'Done?', required: true }, { question_type: 'text', question: 'Next?', required: true }, { question_type: 'text', question: 'Blockers?', is_blocker: true, required: false }],
      },
    })).body;
    const checkin = (await t.db('checkins').where({ uuid: created.uuid }).first())!;
    const questions = await questionsOf(t.db, checkin.uuid);
    const mergeOne = (lines: MergeLines) => t.db.transaction((trx) =>
      mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: { checkin, questions, date: '2026-03-10' }, lines, suffix: '', now: t.clock.now() }));
    // The day's answer starts with the blocker question only: both required questions are still unanswered.
    await mergeOne({ blockers: ['none'] });
    expect((await history(checkin.uuid))[0]).toMatchObject({ response_completed: false, has_issue: false });
    await mergeOne({ completed: ['Shipped'] });
    expect((await history(checkin.uuid))[0]).toMatchObject({ response_completed: false, has_issue: false });
    await mergeOne({ in_progress: ['Billing'], blockers: ['none'] });
    // "none" under "none" is two lines: no longer a "no blockers" answer.
    expect((await history(checkin.uuid))[0]).toMatchObject({ response_completed: true, has_issue: true });
    expect((await history(checkin.uuid))[0].responses.map((a: Answer) => a.response)).toEqual(['Shipped', 'Billing', 'none\nnone']);
  });
});
