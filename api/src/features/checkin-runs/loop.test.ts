import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/secrets.ts';
import { sendDuePrompts, sendDueReminders, sendDueReports } from './feature.ts';
import { createCheckin, linkIn, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

/** A browser's form post: the anti-forgery cookie and the same value in the form. */
async function openPage(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers, redirect: 'manual' });
  const html = await res.text();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  const formKey = /name="form_key" value="([0-9a-f]+)"/.exec(html)?.[1] ?? '';
  return { res, html, cookie, formKey };
}

async function postForm(url: string, fields: [string, string][], cookie: string | null) {
  return fetch(url, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('Check-ins that run themselves: asking, the web answer page, reminders and the report', () => {
  let app: LoopApp;
  beforeEach(async () => {
    app = await startLoopApp();
    app.t.clock.set('2026-03-10T07:00:00.000Z'); // Tuesday, 08:00 in Berlin
  });
  afterEach(async () => app.close());

  it('asks each participant once, at the check-in\'s time in its time zone, by e-mail with the questions, a reply address and the answer link', async () => {
    const { t, p, sink } = app;
    const checkin = await createCheckin(t, p, { custom_template_intro: 'Good morning, team!', custom_template_outro: 'Thanks!' });
    t.clock.set('2026-03-10T07:59:59.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(0);
    t.clock.set('2026-03-10T08:00:00.000Z'); // 09:00 in Berlin
    expect(await sendDuePrompts(t.deps)).toBe(2);
    expect(await sendDuePrompts(t.deps)).toBe(0);
    t.clock.set('2026-03-10T12:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(0);
    await t.deps.delivery.runDue();
    expect(sink.messages.map((m) => m.envelopeTo[0]).sort()).toEqual([p.member.user.email, p.other.user.email].sort());
    const mail = sink.messages.find((m) => m.envelopeTo[0] === p.member.user.email)!;
    expect(mail.subject).toBe('Daily for 2026-03-10');
    expect(mail.text).toContain('Good morning, team!\n\n1. What did you do yesterday?\n2. What will you do today?\n3. Anything blocking you?\n\nAnswer on the web: http://rollcall.example.com/checkins/answer/');
    expect(mail.text).toContain('Thanks!');
    expect(mail.replyTo?.value[0].address).toMatch(/^checkin-[0-9a-f]{32}@inbox\.localhost$/);
    expect(mail.messageId).toMatch(/^<checkin\.[0-9a-f]{24}@inbox\.localhost>$/);
    // Only hashes are stored: neither the link's token nor the reply address's secret is in the database.
    const token = linkIn(t, mail.text).split('/').pop()!;
    const secret = /^checkin-([0-9a-f]{32})@/.exec(mail.replyTo!.value[0].address!)![1];
    const dump = JSON.stringify([await t.db('checkin_answer_tokens'), await t.db('checkin_reply_keys'), await t.db('checkin_prompts')]);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(secret);
    expect(await t.db('checkin_answer_tokens').where({ token_hash: sha256Hex(token) }).first()).toMatchObject({ checkin_uuid: checkin.uuid, user_uuid: p.member.user.uuid, run_date: '2026-03-10' });
    // The next day asks again.
    t.clock.set('2026-03-11T08:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(2);
  });

  it('does not ask someone who already answered that day, nor anyone of an archived or paused check-in, nor a deactivated user', async () => {
    const { t, p } = app;
    const checkin = await createCheckin(t, p, { allow_responses_before_trigger: true });
    const paused = await createCheckin(t, p, { name: 'Paused' });
    await t.request('PATCH', `/v1/checkins/${paused.uuid}/config/`, { key: p.adminKey, body: { active: false } });
    const archived = await createCheckin(t, p, { name: 'Archived' });
    await t.request('DELETE', `/v1/checkins/${archived.uuid}/archive/`, { key: p.adminKey });
    const early = await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Early bird' }, { index: 1, response: 'Worm' }] } });
    expect(early.status).toBe(201);
    await t.request('PATCH', `/v1/users/${p.other.user.uuid}/`, { key: p.adminKey, body: { is_active: false } });
    t.clock.set('2026-03-10T08:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(0);
  });

  it('serves the answer page: the questions in the reader\'s language, saved through the responses service, with CSP, no framing and an anti-forgery value', async () => {
    const { t, p, sink } = app;
    const checkin = await createCheckin(t, p);
    t.clock.set('2026-03-10T08:00:00.000Z');
    await sendDuePrompts(t.deps);
    await t.deps.delivery.runDue();
    const link = linkIn(t, sink.messages.find((m) => m.envelopeTo[0] === p.member.user.email)!.text);
    const page = await openPage(link, { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' });
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.res.headers.get('x-frame-options')).toBe('DENY');
    expect(page.res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/);
    expect(page.res.headers.get('cache-control')).toBe('no-store');
    expect(page.html).toContain('<html lang="pt">');
    expect(page.html).toContain('Salvar minhas respostas');
    expect(page.html).toContain('What did you do yesterday?');
    expect(page.html).toContain('Mia Member');
    expect(page.html).not.toContain('<script');
    expect(page.cookie).toMatch(/^rollcall_answer_form=[0-9a-f]{32}$/);

    const [q0, q1, q2] = checkin.questions.map((q) => `q.${q.uuid}`);
    const fields: [string, string][] = [['form_key', page.formKey], [q0, 'Shipped the <b>importer</b>'], [q1, 'Reviews'], [q2, '']];
    // Without the cookie, or with another form value, nothing is saved.
    expect((await postForm(link, fields, null)).status).toBe(403);
    expect((await postForm(link, [['form_key', 'f'.repeat(32)], ...fields.slice(1)], page.cookie)).status).toBe(403);
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key })).body.count).toBe(0);
    const saved = await postForm(link, fields, page.cookie);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('Saved. You can change your answers until the report is sent.');
    const listed = await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key });
    expect(listed.body.results).toEqual([expect.objectContaining({
      response_date: '2026-03-10', response_completed: true,
      responses: [
        { uuid: checkin.questions[0].uuid, index: 0, question: 'What did you do yesterday?', response: 'Shipped the <b>importer</b>' },
        { uuid: checkin.questions[1].uuid, index: 1, question: 'What will you do today?', response: 'Reviews' },
      ],
    })]);
    // The page shows the day's answer again (escaped), and edits it.
    const again = await openPage(`${link}?lang=es`, { cookie: page.cookie });
    expect(again.html).toContain('Guardar mis respuestas');
    expect(again.html).toContain('Shipped the &lt;b&gt;importer&lt;/b&gt;');
    expect((await postForm(link, [['form_key', again.formKey], [q0, 'Shipped the importer'], [q1, 'Reviews'], [q2, 'The CI']], page.cookie)).status).toBe(200);
    const edited = (await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key })).body.results[0];
    expect(edited).toMatchObject({ has_issue: true });
    expect(edited.responses.map((r: { response: string }) => r.response)).toEqual(['Shipped the importer', 'Reviews', 'The CI']);

    // A forged, malformed or expired link gets a page that says so, and nobody's data.
    for (const bad of [`${link.slice(0, -1)}${link.endsWith('a') ? 'b' : 'a'}`, link.replace(/[^/]+$/, 'short')]) {
      const res = await openPage(bad);
      expect(res.res.status).toBe(404);
      expect(res.html).toContain('This link does not work');
      expect(res.html).not.toContain('Mia');
    }
    expect((await openPage(link.replace(/[^/]+$/, '%00'))).res.status).toBe(404);
    // The link expires 12 hours after the person's day ends (Berlin midnight is 23:00Z).
    t.clock.set('2026-03-11T10:59:59.000Z');
    expect((await openPage(link)).res.status).toBe(200);
    t.clock.set('2026-03-11T11:00:00.000Z');
    expect((await openPage(link)).res.status).toBe(404);
    expect((await postForm(link, fields, page.cookie)).status).toBe(404);
  });

  it('reminds those who have not answered, reminders_max_count times, reminders_frequency_time minutes apart', async () => {
    const { t, p, sink } = app;
    const checkin = await createCheckin(t, p, { reminders_max_count: 2, reminders_frequency_time: 30 });
    t.clock.set('2026-03-10T08:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(2);
    t.clock.set('2026-03-10T08:29:59.000Z');
    expect(await sendDueReminders(t.deps)).toBe(0);
    t.clock.set('2026-03-10T08:30:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(2);
    expect(await sendDueReminders(t.deps)).toBe(0);
    t.clock.set('2026-03-10T08:40:00.000Z');
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Done' }, { index: 1, response: 'More' }] } });
    t.clock.set('2026-03-10T09:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(1);
    t.clock.set('2026-03-10T09:30:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(0);
    t.clock.set('2026-03-10T20:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(0);
    await t.deps.delivery.runDue();
    const reminders = sink.messages.filter((m) => m.subject?.startsWith('Reminder: '));
    expect(reminders.map((m) => m.envelopeTo[0]).sort()).toEqual([p.member.user.email, p.other.user.email, p.other.user.email].sort());
    expect(reminders[0].subject).toBe('Reminder: Daily for 2026-03-10');
    // Each reminder carries a fresh link that works.
    expect((await fetch(linkIn(t, reminders[0].text))).status).toBe(200);
  });

  it('sends no reminder when the count is 0, and none after time_for_report', async () => {
    const { t, p } = app;
    await createCheckin(t, p, { name: 'None', reminders_max_count: 0, reminders_frequency_time: 10 });
    await createCheckin(t, p, { name: 'Until report', reminders_max_count: 5, reminders_frequency_time: 60, time_for_report: '10:30' });
    t.clock.set('2026-03-10T08:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(4);
    let sent = 0;
    for (let minute = 1; minute <= 180; minute++) {
      t.clock.set(new Date(Date.parse('2026-03-10T08:00:00.000Z') + minute * 60_000));
      sent += await sendDueReminders(t.deps);
    }
    // 10:00 and 11:00 Berlin would be due; the report at 10:30 Berlin (09:30Z) stops them after the first.
    expect(sent).toBe(2);
  });

  it('sends the team report at time_for_report by e-mail when there is no report channel: answers, who has not answered, who is away', async () => {
    const { t, p, sink } = app;
    const checkin = await createCheckin(t, p, { time_for_report: '17:00', participants: { user_uuids: [p.member.user.uuid, p.other.user.uuid, p.guest.user.uuid] } });
    expect((await t.request('PATCH', `/v1/users/${p.guest.user.uuid}/`, { key: p.adminKey, body: { time_off: [{ start: '2026-03-09', end: '2026-03-12' }] } })).status).toBe(200);
    t.clock.set('2026-03-10T08:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(2); // Gus is away
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Importer' }, { index: 1, response: 'Exporter' }] } });
    t.clock.set('2026-03-10T15:59:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(0);
    t.clock.set('2026-03-10T16:00:00.000Z'); // 17:00 in Berlin
    expect(await sendDueReports(t.deps)).toBe(1);
    expect(await sendDueReports(t.deps)).toBe(0);
    sink.messages.length = 0;
    await t.deps.delivery.runDue();
    const reports = sink.messages.filter((m) => m.subject === 'Daily report for 2026-03-10');
    expect(reports.map((m) => m.envelopeTo[0]).sort()).toEqual([p.member.user.email, p.other.user.email, p.guest.user.email].sort());
    expect(reports[0].text).toBe([
      'Daily — 2026-03-10',
      '1 of 2 answered, 1 away.',
      '',
      'Mia Member',
      'What did you do yesterday?',
      '  Importer',
      'What will you do today?',
      '  Exporter',
      '',
      'Not answered yet: Otto Member',
      '',
      'Away: Gus Member',
      '',
    ].join('\n'));
    // An answer after the report is kept (the API has it, and the next report) but sends no second report.
    t.clock.set('2026-03-10T16:05:00.000Z');
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.other.key, body: { responses: [{ index: 0, response: 'Late' }, { index: 1, response: 'Later' }] } });
    expect(await sendDueReports(t.deps)).toBe(0);
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.adminKey })).body.count).toBe(2);
    sink.messages.length = 0;
    t.clock.set('2026-03-11T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const next = sink.messages.find((m) => m.subject === 'Daily report for 2026-03-11')!.text!;
    expect(next).toContain('0 of 2 answered, 1 away.');
    expect(next).toContain('Answered for 2026-03-10 after that report:\n\nOtto Member\nWhat did you do yesterday?\n  Late');
    expect(next).not.toContain('Importer');
  });

  it('hides names in an anonymous check-in\'s report', async () => {
    const { t, p, sink } = app;
    const checkin = await createCheckin(t, p, { time_for_report: '17:00', is_anonymous: true });
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Secret work' }, { index: 1, response: 'More of it' }] } });
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const text = sink.messages.find((m) => m.subject === 'Daily report for 2026-03-10')!.text!;
    expect(text).toContain('Answer 1\nWhat did you do yesterday?\n  Secret work');
    expect(text).toContain('Not answered yet: 1');
    expect(text).not.toContain('Mia');
    expect(text).not.toContain('Otto');
  });
});
