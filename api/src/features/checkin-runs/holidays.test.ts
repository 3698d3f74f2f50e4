import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendDuePrompts, sendDueReminders, sendDueReports } from './feature.ts';
import { createCheckin, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

const CALENDAR_MESSAGE = 'Must be a country code with a public-holiday calendar, optionally with a region, for example ES or ES-MD.';

describe('Public holidays and each person\'s notification preferences in the loop (issue 36)', () => {
  let app: LoopApp;
  beforeEach(async () => {
    app = await startLoopApp();
    app.t.clock.set('2026-04-27T07:00:00.000Z');
  });
  afterEach(async () => app.close());

  /** Who a prompts firing at `at` asks, by first name. */
  async function askedAt(at: string): Promise<string[]> {
    const { t } = app;
    t.clock.set(at);
    const before = new Set((await t.db('checkin_prompts').select('uuid')).map((r) => r.uuid));
    await sendDuePrompts(t.deps);
    const rows = await t.db('checkin_prompts as p').join('users as u', 'u.uuid', 'p.user_uuid').select('p.uuid', 'u.first_name');
    return rows.filter((r) => !before.has(r.uuid)).map((r) => r.first_name).sort();
  }

  it('asks nobody on a public holiday of their calendar (their own wins over the check-in\'s) and shows them as holiday in the report', async () => {
    const { t, p, sink } = app;
    const checkin = await createCheckin(t, p, { holiday_calendar: 'es-md', time_for_report: '17:00', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Europe/Madrid' } });
    const detail = await t.request('GET', `/v1/checkins/${checkin.uuid}/detail/`, { key: p.adminKey });
    expect(detail.body.holiday_calendar).toBe('ES-MD');
    // Mia follows the United States' calendar; Otto the check-in's (Spain, Madrid).
    expect((await t.request('PATCH', '/v1/me/', { key: p.member.key, body: { holiday_calendar: 'US' } })).status).toBe(200);
    // Friday 1 May 2026, Labour Day in Spain, a working day in the US.
    expect(await askedAt('2026-05-01T07:00:00.000Z')).toEqual(['Mia']);
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { response_date: '2026-05-01', responses: [{ index: 0, response: 'Shipped' }, { index: 1, response: 'Docs' }] } });
    t.clock.set('2026-05-01T15:00:00.000Z'); // 17:00 in Madrid
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const report = sink.messages.find((m) => m.subject === 'Daily report for 2026-05-01')!;
    expect(report.text).toContain('1 of 1 answered, 1 on holiday.');
    expect(report.text).toContain('\n\nHoliday: Otto Member\n');
    expect(report.text).not.toContain('Not answered yet');
    // Friday 3 July 2026: Independence Day observed in the US; a working day in Madrid.
    expect(await askedAt('2026-07-03T07:00:00.000Z')).toEqual(['Otto']);
    // Monday 4 May: nobody's holiday.
    expect(await askedAt('2026-05-04T07:00:00.000Z')).toEqual(['Mia', 'Otto']);
    // Clearing the check-in's calendar asks Otto on Spain's holidays again (Tuesday 8 December 2026).
    expect((await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { holiday_calendar: null } })).status).toBe(200);
    expect(await askedAt('2026-12-08T08:00:00.000Z')).toEqual(['Mia', 'Otto']);
  });

  it('lists, for the team view, who has not answered, who is away and who is on holiday, and whether the check-in existed that day', async () => {
    const { t, p } = app;
    const checkin = await createCheckin(t, p, { holiday_calendar: 'ES', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'Europe/Madrid' } });
    await t.request('PATCH', '/v1/me/', { key: p.member.key, body: { time_off: [{ start: '2026-04-30', end: '2026-05-01' }] } });
    const mine = (body: { results: { uuid: string }[] }) => body.results.find((c) => c.uuid === checkin.uuid) as Record<string, unknown>;
    const list = await t.request('GET', '/v1/checkins/?include_summary=true&include_pending_users=true&date=2026-05-01', { key: p.adminKey });
    expect(list.status).toBe(200);
    const item = mine(list.body);
    expect(item.summary).toEqual({ date: '2026-05-01', participants: 2, responded: 0, pending: 2, away: 1, holiday: 1, existed: true });
    expect(item.pending_users).toEqual([{ uuid: p.member.user.uuid, full_name: 'Mia Member' }, { uuid: p.other.user.uuid, full_name: 'Otto Member' }]);
    expect(item.away_users).toEqual([{ uuid: p.member.user.uuid, full_name: 'Mia Member' }]);
    expect(item.holiday_users).toEqual([{ uuid: p.other.user.uuid, full_name: 'Otto Member' }]);
    // Created on 27 April (Madrid): the day before, it did not exist yet.
    const before = mine((await t.request('GET', '/v1/checkins/?include_summary=true&include_pending_users=true&date=2026-04-26', { key: p.member.key })).body);
    expect(before.summary).toEqual({ date: '2026-04-26', participants: 2, responded: 0, pending: 2, away: 0, holiday: 0, existed: false });
    expect(before.away_users).toEqual([]);
    expect(before.holiday_users).toEqual([]);
  });

  it('refuses a calendar no library knows with 400 naming holiday_calendar, on create and on config', async () => {
    const { t, p } = app;
    const body = { name: 'Daily', schedule: { days: [1], time: '09:00', timezone: 'UTC' }, questions: [{ question_type: 'text', question: 'News?' }] };
    for (const code of ['XX', 'ES-ZZ', 'Spain', 'E', '', '__proto__']) {
      const res = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { ...body, holiday_calendar: code } });
      expect(res.status, code).toBe(400);
      expect(res.body, code).toEqual({ holiday_calendar: [CALENDAR_MESSAGE] });
    }
    const wrongType = await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body: { ...body, holiday_calendar: 34 } });
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body)).toEqual(['holiday_calendar']);
    const checkin = await createCheckin(t, p);
    const patched = await t.request('PATCH', `/v1/checkins/${checkin.uuid}/config/`, { key: p.adminKey, body: { holiday_calendar: 'FR-99' } });
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual({ holiday_calendar: [CALENDAR_MESSAGE] });
    expect((await t.request('GET', `/v1/checkins/${checkin.uuid}/detail/`, { key: p.adminKey })).body.holiday_calendar).toBe(null);
  });

  it('sends no reminders to someone who turned them off, and no report e-mail to someone who turned those off', async () => {
    const { t, p, sink } = app;
    await createCheckin(t, p, { reminders_max_count: 1, reminders_frequency_time: 60, time_for_report: '17:00' });
    await t.request('PATCH', '/v1/me/', { key: p.member.key, body: { notifications: { reminders: false, report_emails: false } } });
    expect(await askedAt('2026-04-28T07:00:00.000Z')).toEqual(['Mia', 'Otto']);
    t.clock.set('2026-04-28T08:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toBe(1);
    t.clock.set('2026-04-28T15:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    const to = (subject: string) => sink.messages.filter((m) => m.subject === subject).map((m) => m.envelopeTo[0]).sort();
    expect(to('Reminder: Daily for 2026-04-28')).toEqual([p.other.user.email]);
    expect(to('Daily report for 2026-04-28')).toEqual([p.other.user.email]);
  });
});
