import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool, connectMcp, structured } from '../../../test/mcp-client.ts';
import { sendDuePrompts, sendDueReminders, sendDueReports } from './feature.ts';
import { createCheckin, linkIn, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

/**
 * What "answered" means for a day's run (issue 34): every required question has an answer that is not blank. A
 * direct answer that leaves one empty is refused; an agent's co-authored lines or a `rollcall update` that leave
 * one empty are kept, and the person is still reminded, still pending, and marked "not finished" in the report.
 */
describe('A check-in is answered when every required question is', () => {
  let app: LoopApp;
  let checkin: Awaited<ReturnType<typeof createCheckin>>;
  beforeEach(async () => {
    app = await startLoopApp();
    app.t.clock.set('2026-03-10T07:00:00.000Z');
    // Two required questions and an optional blocker question; reminders every 30 minutes; the report at 17:00 Berlin.
    checkin = await createCheckin(app.t, app.p, { reminders_max_count: 3, reminders_frequency_time: 30, time_for_report: '17:00' });
    app.t.clock.set('2026-03-10T08:00:00.000Z');
    expect(await sendDuePrompts(app.t.deps)).toBe(2);
  });
  afterEach(async () => app.close());

  const pending = async (key: string) => (await app.t.request('GET', '/v1/cli/status/', { key })).body.pending_checkins.map((c: { followup_name: string }) => c.followup_name);

  it('refuses an empty answer over REST and MCP, where get_checkin gives an agent the questions to answer', async () => {
    const { t, p } = app;
    const path = `/v1/checkins/${checkin.uuid}/responses/`;
    const refused = await t.request('POST', path, { key: p.member.key, body: { responses: [] } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      responses: ['The required question at index 0 ("What did you do yesterday?") has no answer.', 'The required question at index 1 ("What will you do today?") has no answer.'],
    });
    const mcp = await connectMcp(t, { 'X-API-KEY': p.member.key });
    try {
      const empty = await callTool(mcp, 'answer_checkin', { uuid: checkin.uuid, responses: [] });
      expect(empty.isError).toBe(true);
      expect(structured(empty)).toEqual({ status: 400, code: 'validation_error', detail: expect.any(String), fields: refused.body });
      const read = await callTool(mcp, 'get_checkin', { uuid: checkin.uuid });
      expect(read.isError).toBeFalsy();
      const questions = structured(read).questions as { uuid: string; index: number; question: string; required: boolean }[];
      expect(questions.map((q) => [q.index, q.question, q.required])).toEqual([[0, 'What did you do yesterday?', true], [1, 'What will you do today?', true], [2, 'Anything blocking you?', false]]);
      expect((read.content as { text: string }[])[0].text).toBe('Daily: 0. What did you do yesterday? (required) 1. What will you do today? (required) 2. Anything blocking you?');
      expect(await t.db('checkin_responses')).toEqual([]);
      // Still waiting: reminded, and listed as pending.
      t.clock.set('2026-03-10T08:30:00.000Z');
      expect(await sendDueReminders(t.deps)).toBe(2);
      expect(await pending(p.member.key)).toEqual(['Daily']);
      const answered = await callTool(mcp, 'answer_checkin', { uuid: checkin.uuid, responses: questions.filter((q) => q.required).map((q) => ({ uuid: q.uuid, response: `Answer ${q.index}` })) });
      expect(answered.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
    expect(await pending(p.member.key)).toEqual([]);
    t.clock.set('2026-03-10T09:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(1); // Otto only
  });

  it('refuses the web answer page\'s form with a required question blank: 400, the question named, the input kept, nothing saved', async () => {
    const { t, p, sink } = app;
    await t.deps.delivery.runDue();
    const link = linkIn(t, sink.messages.find((m) => m.envelopeTo[0] === p.member.user.email)!.text);
    const opened = await fetch(link);
    const html = await opened.text();
    const cookie = opened.headers.get('set-cookie')!.split(';')[0];
    const formKey = /name="form_key" value="([0-9a-f]+)"/.exec(html)![1];
    // The browser asks for the required answers before sending; the server refuses a blank one all the same.
    expect(html.match(/<textarea [^>]*>/g)).toEqual([
      `<textarea id="q0" name="q.${checkin.questions[0].uuid}" rows="4" required>`,
      `<textarea id="q1" name="q.${checkin.questions[1].uuid}" rows="4" required>`,
      `<textarea id="q2" name="q.${checkin.questions[2].uuid}" rows="4">`,
    ]);
    const [q0, q1] = checkin.questions.map((q) => `q.${q.uuid}`);
    const refused = await fetch(link, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams([['form_key', formKey], [q0, 'Shipped the importer'], [q1, ' \r\n ']]).toString(),
    });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain('<div class="note" role="alert"><p>Some answers could not be saved:</p><ul><li>Answer this required question: What will you do today?</li></ul></div>');
    expect(page).toContain(`<textarea id="q1" name="q.${checkin.questions[1].uuid}" rows="4" required aria-invalid="true">`);
    expect(page).toContain('>Shipped the importer</textarea>');
    expect(await t.db('checkin_responses')).toEqual([]);
  });

  it('keeps an agent\'s co-authored lines and a rollcall update that answer in part: still reminded, pending and "not finished" until the rest is answered', async () => {
    const { t, p, sink } = app;
    const report = await t.request('POST', '/v1/agent-reports/', { key: p.adminKey, body: { agent_name: 'deploy-bot', content: 'Deployed v2', structured: { completed: ['Deployed v2'] }, co_authors: [p.member.user.email] } });
    expect(report.status).toBe(201);
    const update = await t.request('POST', '/v1/cli/updates/', { key: p.other.key, body: { doing: 'Reviews' } });
    expect(update.body.attached_followups).toEqual([{
      followup_uuid: checkin.uuid, followup_name: 'Daily', date: '2026-03-10', action: 'created', response_completed: false,
      unanswered_questions: [{ uuid: checkin.questions[0].uuid, index: 0, question: 'What did you do yesterday?' }],
    }]);
    expect(await pending(p.member.key)).toEqual(['Daily']);
    expect(await pending(p.other.key)).toEqual(['Daily']);
    const summary = (await t.request('GET', '/v1/checkins/?include_summary=true&include_pending_users=true', { key: p.adminKey })).body.results[0];
    expect(summary).toMatchObject({ summary: { participants: 2, responded: 0, pending: 2 } });
    expect(summary.pending_users).toHaveLength(2);
    t.clock.set('2026-03-10T08:30:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(2);

    // A POST over the day begun says to add the rest with PUT; a PUT that still leaves a required question empty is refused.
    const path = `/v1/checkins/${checkin.uuid}/responses/`;
    expect((await t.request('POST', path, { key: p.member.key, body: { responses: [{ index: 1, response: 'Billing' }] } })).body.code).toBe('response_already_exists');
    expect((await t.request('PUT', path, { key: p.member.key, body: { responses: [{ index: 2, response: 'none' }] } })).body).toEqual({
      responses: ['The required question at index 1 ("What will you do today?") has no answer.'],
    });
    const done = await t.request('PUT', path, { key: p.member.key, body: { responses: [{ index: 1, response: 'Billing' }] } });
    expect(done.body).toMatchObject({ response_completed: true, responses: [{ response: 'Deployed v2 (co-authored with deploy-bot)' }, { response: 'Billing' }] });
    expect(await pending(p.member.key)).toEqual([]);
    t.clock.set('2026-03-10T09:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(1); // Otto only

    sink.messages.length = 0;
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    expect(sink.messages.find((m) => m.subject === 'Daily report for 2026-03-10')!.text).toBe([
      'Daily — 2026-03-10',
      '1 of 2 answered.',
      '',
      'Mia Member',
      'What did you do yesterday?',
      '  Deployed v2 (co-authored with deploy-bot)',
      'What will you do today?',
      '  Billing',
      '',
      'Otto Member (not finished)',
      'What will you do today?',
      '  Reviews',
      '',
    ].join('\n'));
    const runs = (await t.request('GET', `/v1/checkins/${checkin.uuid}/runs/`, { key: p.adminKey })).body.results[0];
    expect(runs.answered).toBe(1);
    expect(runs.prompts.map((pr: { user: { full_name: string }; answered: boolean }) => [pr.user.full_name, pr.answered]).sort()).toEqual([['Mia Member', true], ['Otto Member', false]]);
  });
});
