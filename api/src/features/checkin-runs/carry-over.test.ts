import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendDuePrompts, sendDueReports } from './feature.ts';
import { createCheckin, linkIn, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

/** Issue 36 items 3 and 4 in the loop: the prompt and the answer page carry last time's answers and open blockers. */
describe('What a prompt carries over', () => {
  let app: LoopApp;
  beforeEach(async () => {
    app = await startLoopApp();
    app.t.clock.set('2026-03-10T07:00:00.000Z');
  });
  afterEach(async () => app.close());

  const QUESTIONS = [
    { question_type: 'text', question: 'Done?' },
    { question_type: 'numeric', question: 'Week?', presentation: 'scale', min_label: 'Rough', max_label: 'Great' },
    { question_type: 'multiple_choice', question: 'Where?', options: ['Home', 'Office'], required: false },
    { question_type: 'boolean', question: 'Blocked?', is_blocker: true },
    { question_type: 'text', question: 'What blocks you?', logic: { show_if: { question_index: 3, equals: true } } },
  ];

  it('asks "Still blocked by …?" with last time\'s answers, shows both on the answer page, and resolves a blocker from it', async () => {
    const { t, p, sink } = app;
    const checkin = await createCheckin(t, p, { questions: QUESTIONS });
    const path = `/v1/checkins/${checkin.uuid}/responses/`;
    const answered = await t.request('POST', path, { key: p.member.key, body: { responses: [{ index: 0, response: 'Importer' }, { index: 1, response: 4 }, { index: 2, response: 'Home' }, { index: 3, response: true }, { index: 4, response: 'Waiting for the API keys' }] } });
    expect(answered.status).toBe(201);

    t.clock.set('2026-03-11T08:00:00.000Z'); // Wednesday 09:00 in Berlin
    await sendDuePrompts(t.deps);
    await t.deps.delivery.runDue();
    const mail = sink.messages.find((m) => m.envelopeTo[0] === p.member.user.email)!;
    expect(mail.text).toContain([
      '1. Done?',
      '2. Week? (1 = Rough … 5 = Great)',
      '3. Where? (one of: Home, Office)',
      '4. Blocked? (yes or no)',
      '5. What blocks you? (only if "Blocked?" is Yes)',
      '',
      'Still blocked by "Waiting for the API keys" (since 2026-03-10)?',
      'Resolve a blocker on the answer page, or answer the blocker question with "none".',
      'Last time (2026-03-10):',
      'Done? — Importer',
      'Week? — 4/5',
      'Where? — Home',
      'Blocked? — Yes',
      'What blocks you? — Waiting for the API keys',
    ].join('\n'));
    const other = sink.messages.find((m) => m.envelopeTo[0] === p.other.user.email)!;
    expect(other.text).not.toContain('Last time');

    const link = linkIn(t, mail.text).replace(t.url, '');
    const page = await t.request('GET', link, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<legend>Still blocked?</legend>');
    expect(page.text).toContain('Resolved: &quot;Waiting for the API keys&quot; (since 2026-03-10)');
    expect(page.text).toContain('<p class="hint muted">Last time (2026-03-10): 4/5</p>');
    expect(page.text).toContain('<p class="hint muted">Only if &quot;Blocked?&quot; is Yes</p>');
    // A scale is a row of radio buttons; one choice among several, radio buttons too.
    expect(page.text).toMatch(/<div class="scale">\n<label class="choice" for="q1-0"><input type="radio" id="q1-0" name="q\.[0-9a-f-]+" value="1" required> 1<\/label>/);
    expect(page.text).toContain('<span>1: Rough</span><span>5: Great</span>');
    expect(page.text).toMatch(/<input type="radio" id="q2-0" name="q\.[0-9a-f-]+" value="Home"> Home/);

    const cookie = page.headers.get('set-cookie')!.split(';')[0];
    const formKey = /name="form_key" value="([0-9a-f]+)"/.exec(page.text)![1];
    const blocker = (await t.request('GET', `/v1/checkins/${checkin.uuid}/blockers/?state=open`, { key: p.member.key })).body.results[0];
    const q = checkin.questions.map((x) => `q.${x.uuid}`);
    const form = new URLSearchParams([['form_key', formKey], ['resolved', blocker.uuid], [q[0], 'Docs'], [q[1], '5'], [q[2], 'Office'], [q[3], 'no'], [q[4], 'left over']]).toString();
    const saved = await t.request('POST', link, { raw: form, headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie } });
    expect(saved.status).toBe(200);
    expect(saved.text).not.toContain('Still blocked?');
    const [row] = (await t.request('GET', `${path}?date_start=2026-03-11`, { key: p.member.key })).body.results;
    expect(row.responses.map((r: { response: unknown }) => r.response)).toEqual(['Docs', 5, 'Office', false]);
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/blockers/`, { key: p.member.key })).body.results.map((b: { state: string; resolved_on: string }) => [b.state, b.resolved_on])).toEqual([['resolved', '2026-03-11']]);

    // A scale answer out of range from the page is refused naming it; nothing changes.
    const bad = await t.request('POST', link, { raw: new URLSearchParams([['form_key', formKey], [q[0], 'Docs'], [q[1], '9'], [q[3], 'no']]).toString(), headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('A whole number from 1 to 5.');
  });

  it('lists the team\'s open blockers in the report, with a scale\'s answer out of its top', async () => {
    const { t, p, sink } = app;
    const checkin = await createCheckin(t, p, { questions: QUESTIONS, time_for_report: '17:00' });
    const path = `/v1/checkins/${checkin.uuid}/responses/`;
    await t.request('POST', path, { key: p.member.key, body: { responses: [{ index: 0, response: 'Importer' }, { index: 1, response: 2 }, { index: 3, response: true }, { index: 4, response: 'Waiting for the API keys' }] } });
    t.clock.set('2026-03-11T08:00:00.000Z');
    await t.request('POST', path, { key: p.other.key, body: { responses: [{ index: 0, response: 'Docs' }, { index: 1, response: 5 }, { index: 3, response: false }] } });
    t.clock.set('2026-03-11T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const report = sink.messages.find((m) => m.subject === 'Daily report for 2026-03-11')!;
    expect(report.text).toContain('Otto Member\nDone?\n  Docs\nWeek?\n  5/5\nBlocked?\n  No');
    expect(report.text).toContain('Open blockers:\n- Mia Member: Waiting for the API keys (1 day)');
  });
});
