import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendDuePrompts, sendDueReminders, sendDueReports } from './feature.ts';
import { createCheckin, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

describe('GET /v1/checkins/{uuid}/runs/ and POST …/answer-link/', () => {
  let app: LoopApp;
  beforeEach(async () => {
    app = await startLoopApp();
    app.t.clock.set('2026-03-10T07:00:00.000Z');
  });
  afterEach(async () => app.close());

  it('lists each day\'s run: who was asked and reminded, who answered, the report and where it went, with delivery status', async () => {
    const { t, p } = app;
    const checkin = await createCheckin(t, p, { time_for_report: '17:00', reminders_max_count: 1, reminders_frequency_time: 60 });
    t.clock.set('2026-03-10T08:00:00.000Z');
    await sendDuePrompts(t.deps);
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Done' }, { index: 1, response: 'Next' }] } });
    t.clock.set('2026-03-10T09:00:00.000Z');
    await sendDueReminders(t.deps);
    t.clock.set('2026-03-10T16:00:00.000Z');
    await sendDueReports(t.deps);
    await t.deps.delivery.runDue();
    const res = await t.request('GET', `/v1/checkins/${checkin.uuid}/runs/`, { key: p.adminKey, example: true });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    const [day] = res.body.results;
    expect(day).toMatchObject({ date: '2026-03-10', asked: 2, answered: 1 });
    const byName = Object.fromEntries(day.prompts.map((pr: { user: { full_name: string } }) => [pr.user.full_name, pr]));
    expect(byName['Mia Member']).toMatchObject({ answered: true, answered_at: '2026-03-10T08:00:00.000Z', reminders_sent: 0, prompted_at: '2026-03-10T08:00:00.000Z', timezone: 'Europe/Berlin' });
    expect(byName['Mia Member'].deliveries).toEqual([expect.objectContaining({ channel: 'email', kind: 'checkin.prompt', destination: p.member.user.email, status: 'delivered', attempts: 1 })]);
    expect(byName['Otto Member']).toMatchObject({ answered: false, answered_at: null, reminders_sent: 1, last_reminded_at: '2026-03-10T09:00:00.000Z' });
    expect(byName['Otto Member'].deliveries.map((d: { kind: string; status: string }) => [d.kind, d.status])).toEqual([['checkin.prompt', 'delivered'], ['checkin.reminder', 'delivered']]);
    expect(day.reports).toEqual([expect.objectContaining({ one_by_one: false, user_uuid: null, sent_at: '2026-03-10T16:00:00.000Z', destinations: [`email:${p.member.user.email}`, `email:${p.other.user.email}`].sort() })]);
    expect(day.reports[0].deliveries).toHaveLength(2);
    // Members may not read the runs; another organization sees nothing (404, as absent); dates filter.
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/runs/`, { key: p.member.key })).status).toBe(403);
    const other = await t.seedOrganization({ name: 'Other' });
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/runs/`, { key: other.adminKey })).status).toBe(404);
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/runs/?since=2026-03-11`, { key: p.adminKey })).body.count).toBe(0);
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/runs/?since=2026-03-12&until=2026-03-11`, { key: p.adminKey })).body.code).toBe('invalid_date_range');
  });

  it('gives a participant a fresh web answer link for today, and refuses people who do not take part', async () => {
    const { t, p } = app;
    const checkin = await createCheckin(t, p);
    const res = await t.request('POST', `/v1/checkins/${checkin.uuid}/answer-link/`, { key: p.member.key, example: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      followup_uuid: checkin.uuid, followup_name: 'Daily', response_date: '2026-03-10',
      url: expect.stringMatching(/^http:\/\/rollcall\.example\.com\/checkins\/answer\/[0-9A-Za-z]{43}$/), expires_at: '2026-03-11T11:00:00.000Z',
    });
    expect((await fetch(res.body.url.replace('http://rollcall.example.com', t.url))).status).toBe(200);
    const refused = await t.request('POST', `/v1/checkins/${checkin.uuid}/answer-link/`, { key: p.adminKey });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('not_a_participant');

    // A link answers its own check-in only: Mia's answer through it is not an answer to her other check-in, and
    // once its check-in is archived the link no longer works.
    const other = await createCheckin(t, p, { name: 'Retro' });
    const link = res.body.url.replace('http://rollcall.example.com', '');
    const page = await t.request('GET', link, { headers: { accept: 'text/html' } });
    const cookie = page.headers.get('set-cookie')!.split(';')[0];
    const formKey = /name="form_key" value="([0-9a-f]+)"/.exec(page.text)![1];
    const form = new URLSearchParams([['form_key', formKey], [`q.${checkin.questions[0].uuid}`, 'Done'], [`q.${checkin.questions[1].uuid}`, 'Next'], [`q.${other.questions[0].uuid}`, 'Not here']]).toString();
    const post = () => t.request('POST', link, { raw: form, headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie } });
    expect((await post()).status).toBe(200);
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key })).body.count).toBe(1);
    expect((await t.request('GET', `/v1/checkins/${other.uuid}/responses/`, { key: p.member.key })).body.count).toBe(0);
    await t.request('DELETE', `/v1/checkins/${checkin.uuid}/archive/`, { key: p.adminKey });
    expect((await post()).status).toBe(404);
  });

  it('answers on the web page through the harness, and closes the answer once the day\'s report is sent (409)', async () => {
    const { t, p } = app;
    const checkin = await createCheckin(t, p, { time_for_report: '17:00', questions: [{ question_type: 'text', question: 'Done?' }, { question_type: 'boolean', question: 'On track?' }, { question_type: 'numeric', question: 'Hours?' }, { question_type: 'multiple_choice', question: 'Mood?', options: ['Good', 'Tired'], multiple: true }] });
    const link = (await t.request('POST', `/v1/checkins/${checkin.uuid}/answer-link/`, { key: p.member.key })).body.url.replace('http://rollcall.example.com', '');
    const page = await t.request('GET', link, { headers: { accept: 'text/html' }, example: true });
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie')!.split(';')[0];
    const formKey = /name="form_key" value="([0-9a-f]+)"/.exec(page.text)![1];
    const [done, track, hours, mood] = checkin.questions.map((q) => `q.${q.uuid}`);
    const form = new URLSearchParams([['form_key', formKey], [done, 'Shipped the importer'], [track, 'yes'], [hours, '6.5'], [mood, 'Good'], [mood, 'Tired']]).toString();
    const post = (body: string) => t.request('POST', link, { raw: body, headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie }, example: true });
    const saved = await post(form);
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Saved.');
    const [row] = (await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key })).body.results;
    expect(row.responses.map((r: { response: unknown }) => r.response)).toEqual(['Shipped the importer', true, 6.5, ['Good', 'Tired']]);
    const refused = await post(new URLSearchParams([['form_key', formKey], [hours, 'many']]).toString());
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('A numeric answer is a number.');
    expect(refused.text).toContain('value="many"');
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    const closed = await post(form);
    expect(closed.status).toBe(409);
    expect(closed.text).toContain('The report for this day has been sent');
    expect(closed.text).not.toContain('<form');
  });
});
