import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { sendDuePrompts, sendDueReminders } from '../checkin-runs/feature.ts';

/**
 * Insights of a check-in run by the real loop: asked Monday to Wednesday at 09:00 UTC with one reminder an hour
 * later; Mia answers every day before her reminder, Otto skips Monday and answers Tuesday after his reminder;
 * Wednesday (today) Otto has not answered yet.
 */
describe('Insights: GET …/checkins/{uuid}/insights/ and /v1/teams/{uuid}/insights/', () => {
  let t: TestApp;
  let p: People;
  let checkin: string;
  let team: string;
  let q: { uuid: string }[];

  const at = (instant: string) => t.clock.set(instant);
  async function answer(key: string, values: [string, number, string, boolean]) {
    const res = await t.request('POST', `/v1/checkins/${checkin}/responses/`, {
      key,
      body: { responses: values.map((response, index) => ({ uuid: q[index].uuid, response })) },
    });
    expect(res.status).toBe(201);
  }

  beforeAll(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    at('2026-03-09T08:00:00.000Z'); // Monday
    team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Platform' } })).body.uuid;
    await t.request('POST', `/v1/teams/${team}/member/`, { key: p.adminKey, body: { members: [{ uuid: p.member.user.uuid }, { uuid: p.other.user.uuid }] } });
    const created = await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: {
        name: 'Daily', schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'UTC' }, participants: { team_uuids: [team] },
        reminders_max_count: 1, reminders_frequency_time: 60,
        questions: [
          { question_type: 'text', question: 'What did you do?' },
          { question_type: 'numeric', question: 'Hours of focus?', required: false },
          { question_type: 'multiple_choice', question: 'Where?', options: ['Office', 'Home'], required: false },
          { question_type: 'boolean', question: 'Blocked?', is_blocker: true, required: false },
        ],
      },
    });
    expect(created.status).toBe(201);
    checkin = created.body.uuid;
    q = created.body.questions;
    const day = async (date: string, steps: [string, () => Promise<unknown>][]) => {
      at(`${date}T09:00:00.000Z`);
      expect(await sendDuePrompts(t.deps)).toBe(2);
      for (const [time, step] of steps) {
        at(`${date}T${time}:00.000Z`);
        await step();
      }
    };
    await day('2026-03-09', [['09:30', () => answer(p.member.key, ['Shipped', 6, 'Home', false])], ['10:00', () => sendDueReminders(t.deps)]]);
    await day('2026-03-10', [
      ['09:10', () => answer(p.member.key, ['Reviewed', 4, 'Office', true])],
      ['10:00', () => sendDueReminders(t.deps)],
      ['10:30', () => answer(p.other.key, ['=HYPERLINK("x"), then "fixed"', 5, 'Office', false])],
    ]);
    await day('2026-03-11', [
      ['09:20', () => answer(p.member.key, ['Planned,\nthen built', 6, 'Home', false])],
      ['09:25', () => t.request('POST', '/v1/mood/track/', { key: p.member.key, body: { score: 4 } })],
      ['12:00', async () => {}],
    ]);
  });
  afterAll(async () => t.close());

  const rates = (expected: number, answered: number, onTime: number, minutes: number | null) => ({
    expected, answered, answered_on_time: onTime,
    participation_rate: expected ? Math.round((answered / expected) * 1000) / 1000 : null,
    on_time_rate: answered ? Math.round((onTime / answered) * 1000) / 1000 : null,
    average_minutes_to_answer: minutes,
  });
  const mia = () => ({ uuid: p.member.user.uuid, full_name: 'Mia Member' });
  const otto = () => ({ uuid: p.other.user.uuid, full_name: 'Otto Member' });
  const days = () => [
    { date: '2026-03-09', ...rates(2, 1, 1, 30), blockers_reported: 0 },
    { date: '2026-03-10', ...rates(2, 2, 1, 50), blockers_reported: 1 },
    { date: '2026-03-11', ...rates(1, 1, 1, 20), blockers_reported: 0 },
  ];
  const questions = (answered: [number, number, number], values: { hours: number[]; office: number; home: number; blocked: [number, number] }) => {
    const hours = values.hours;
    const mean = (list: number[]) => (list.length ? Math.round((list.reduce((a, b) => a + b, 0) / list.length) * 100) / 100 : null);
    const counts = [...new Set(hours)].sort().map((value) => ({ value, count: hours.filter((h) => h === value).length }));
    const blockedMean = values.blocked[0] + values.blocked[1] ? Math.round((values.blocked[0] / (values.blocked[0] + values.blocked[1])) * 100) / 100 : null;
    return [
      { uuid: q[1].uuid, checkin_uuid: checkin, index: 1, question: 'Hours of focus?', question_type: 'numeric', presentation: null, answered: answered[0], mean: mean(hours), min: Math.min(...hours), max: Math.max(...hours), distribution: counts, days: null },
      { uuid: q[2].uuid, checkin_uuid: checkin, index: 2, question: 'Where?', question_type: 'multiple_choice', presentation: null, answered: answered[1], mean: null, min: null, max: null, distribution: [{ value: 'Office', count: values.office }, { value: 'Home', count: values.home }], days: null },
      { uuid: q[3].uuid, checkin_uuid: checkin, index: 3, question: 'Blocked?', question_type: 'boolean', presentation: null, answered: answered[2], mean: blockedMean, min: 0, max: values.blocked[0] ? 1 : 0, distribution: [{ value: true, count: values.blocked[0] }, { value: false, count: values.blocked[1] }], days: null },
    ];
  };

  it('shows admins and managers participation, on-time answers, time to answer, streaks, mood, blockers and aggregated answers', async () => {
    const res = await t.request('GET', `/v1/checkins/${checkin}/insights/?from=2026-03-09&to=2026-03-11`, { key: p.manager.key, example: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      checkin: { uuid: checkin, id: checkin, name: 'Daily' },
      from: '2026-03-09', to: '2026-03-11', timezone: 'UTC', scope: 'all',
      checkins: [{ uuid: checkin, id: checkin, name: 'Daily', timezone: 'UTC', is_anonymous: false }],
      ...rates(5, 4, 3, 37.5),
      days: days(),
      people: [
        { user: mia(), ...rates(3, 3, 3, 20), current_streak: 3, longest_streak: 3 },
        { user: otto(), ...rates(2, 1, 0, 90), current_streak: 1, longest_streak: 1 },
      ],
      mood: { source: 'tracked', average: 4, count: 1, days: [{ date: '2026-03-11', average: 4, count: 1 }] },
      blockers: { source: 'answers', reported: 1, resolved: null },
      questions: questions([4, 4, 4], { hours: [6, 4, 5, 6], office: 2, home: 2, blocked: [1, 3] }),
    });
    // The same numbers for an admin, and under /v1/followups/.
    const admin = await t.request('GET', `/v1/followups/${checkin}/insights/?from=2026-03-09&to=2026-03-11`, { key: p.adminKey });
    expect(admin.body).toEqual(res.body);
  });

  it('shows a member their own numbers only', async () => {
    const res = await t.request('GET', `/v1/checkins/${checkin}/insights/?since=2026-03-09&until=2026-03-11`, { key: p.other.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      scope: 'own',
      ...rates(2, 1, 0, 90),
      days: [
        { date: '2026-03-09', ...rates(1, 0, 0, null), blockers_reported: 0 },
        { date: '2026-03-10', ...rates(1, 1, 0, 90), blockers_reported: 0 },
        { date: '2026-03-11', ...rates(0, 0, 0, null), blockers_reported: 0 },
      ],
      people: [{ user: otto(), ...rates(2, 1, 0, 90), current_streak: 1, longest_streak: 1 }],
      mood: { source: 'tracked', average: null, count: 0, days: [] },
      blockers: { source: 'answers', reported: 0, resolved: null },
      questions: questions([1, 1, 1], { hours: [5], office: 1, home: 0, blocked: [0, 1] }),
    });
  });

  it('defaults to the last 30 days, today included, in the check-in\'s time zone', async () => {
    const res = await t.request('GET', `/v1/checkins/${checkin}/insights/`, { key: p.manager.key });
    expect(res.status).toBe(200);
    expect([res.body.from, res.body.to, res.body.days.length]).toEqual(['2026-02-10', '2026-03-11', 30]);
    expect(res.body.days.slice(-3)).toEqual(days());
    const from = await t.request('GET', `/v1/checkins/${checkin}/insights/?from=2026-03-10`, { key: p.manager.key });
    expect([from.body.from, from.body.to]).toEqual(['2026-03-10', '2026-03-11']);
  });

  it('refuses an unreadable day, a start after the end and a period over 366 days with 400 invalid_date_range', async () => {
    const cases: [string, string, string][] = [
      ['from=2026-02-30', 'from must be a date as YYYY-MM-DD.', 'from'],
      ['to=2026-3-1', 'to must be a date as YYYY-MM-DD.', 'to'],
      ['from=2026-03-11&to=2026-03-10', 'from is after to.', 'from'],
      ['from=2025-03-10&to=2026-03-11', 'The period is at most 366 days.', 'from'],
    ];
    for (const [query, detail, parameter] of cases) {
      for (const path of [`/v1/checkins/${checkin}/insights/`, `/v1/teams/${team}/insights/`, `/v1/checkins/${checkin}/responses/export/`]) {
        const res = await t.request('GET', `${path}?${query}`, { key: p.manager.key });
        expect([path, res.status, res.body]).toEqual([path, 400, { detail, code: 'invalid_date_range', extra: { parameter } }]);
      }
    }
    const year = await t.request('GET', `/v1/checkins/${checkin}/insights/?from=2025-03-11&to=2026-03-11`, { key: p.manager.key });
    expect([year.status, year.body.days.length]).toEqual([200, 366]);
  });

  it('answers 404 with the same body for another organization\'s check-in or team, an absent one, and one a member is not in', async () => {
    const globex = await seedPeople(t, { name: 'Globex' });
    const absent = await t.request('GET', `/v1/checkins/${MISSING}/insights/`, { key: p.manager.key });
    expect(absent.status).toBe(404);
    for (const [key, path] of [
      [globex.adminKey, `/v1/checkins/${checkin}/insights/`],
      [globex.adminKey, `/v1/checkins/${checkin}/responses/export/`],
      [globex.adminKey, `/v1/teams/${team}/insights/`],
      [p.guest.key, `/v1/checkins/${checkin}/insights/`],
      [p.guest.key, `/v1/teams/${team}/insights/`],
      [p.manager.key, `/v1/teams/${MISSING}/insights/`],
    ]) {
      const res = await t.request('GET', path, { key });
      expect([path, res.status, res.body]).toEqual([path, 404, absent.body]);
    }
  });

  it('shows a team the numbers of its members across the check-ins it takes part in', async () => {
    const res = await t.request('GET', `/v1/teams/${team}/insights/?from=2026-03-09&to=2026-03-11`, { key: p.adminKey, example: true });
    expect(res.status).toBe(200);
    const checkinBody = (await t.request('GET', `/v1/checkins/${checkin}/insights/?from=2026-03-09&to=2026-03-11`, { key: p.adminKey })).body;
    const { checkin: _, ...numbers } = checkinBody;
    expect(res.body).toEqual({ team: { uuid: team, id: team, name: 'Platform' }, ...numbers });
    const own = await t.request('GET', `/v1/teams/${team}/insights/?from=2026-03-09&to=2026-03-11`, { key: p.member.key });
    expect([own.status, own.body.scope, own.body.people.map((x: { user: { uuid: string } }) => x.user.uuid)]).toEqual([200, 'own', [p.member.user.uuid]]);
  });

  it('names nobody on an anonymous check-in', async () => {
    const anonymous = await t.request('POST', '/v1/checkins/create/', {
      key: p.adminKey,
      body: { name: 'Pulse', is_anonymous: true, schedule: { days: [1, 2, 3, 4, 5], time: '09:00', timezone: 'UTC' }, participants: { team_uuids: [team] }, questions: [{ question_type: 'text', question: 'How is it going?' }] },
    });
    await t.request('POST', `/v1/checkins/${anonymous.body.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Fine' }] } });
    const res = await t.request('GET', `/v1/checkins/${anonymous.body.uuid}/insights/?from=2026-03-11&to=2026-03-11`, { key: p.adminKey });
    expect(res.body).toMatchObject({ ...rates(1, 1, 1, null), people: [] });
    const team2 = await t.request('GET', `/v1/teams/${team}/insights/?from=2026-03-11&to=2026-03-11`, { key: p.adminKey });
    expect(team2.body).toMatchObject({ ...rates(2, 2, 2, 20), people: [{ user: mia(), ...rates(1, 1, 1, 20) }, { user: otto(), ...rates(0, 0, 0, null) }] });
    await t.request('DELETE', `/v1/checkins/${anonymous.body.uuid}/archive/`, { key: p.adminKey });
  });

  it('exports the answers of a period as CSV, escaped and safe to open in a spreadsheet; a member exports their own', async () => {
    const res = await t.request('GET', `/v1/checkins/${checkin}/responses/export/?from=2026-03-09&to=2026-03-11`, { key: p.manager.key, example: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="daily-2026-03-09-2026-03-11.csv"');
    const header = 'date,person,answered,blocker,What did you do?,Hours of focus?,Where?,Blocked?,first_saved_at,last_saved_at\r\n';
    const otto = '2026-03-10,Otto Member,yes,no,"\'=HYPERLINK(""x""), then ""fixed""",5,Office,no,2026-03-10T10:30:00.000Z,2026-03-10T10:30:00.000Z\r\n';
    expect(res.text).toBe(
      header +
        '2026-03-09,Mia Member,yes,no,Shipped,6,Home,no,2026-03-09T09:30:00.000Z,2026-03-09T09:30:00.000Z\r\n' +
        '2026-03-10,Mia Member,yes,yes,Reviewed,4,Office,yes,2026-03-10T09:10:00.000Z,2026-03-10T09:10:00.000Z\r\n' +
        otto +
        '2026-03-11,Mia Member,yes,no,"Planned,\nthen built",6,Home,no,2026-03-11T09:20:00.000Z,2026-03-11T09:20:00.000Z\r\n',
    );
    const own = await t.request('GET', `/v1/followups/${checkin}/responses/export/?from=2026-03-09&to=2026-03-11`, { key: p.other.key });
    expect([own.status, own.text]).toEqual([200, header + otto]);
  });

  it('answers junk periods and path parameters with a 4xx, never a 5xx', async () => {
    const queries = ['from=%00', 'from=0000-01-01&to=0000-12-31', 'to=9999-12-31', 'to=0000-01-05', 'from=2026-03-10&from=2026-13-01', 'from[]=2026-03-10', 'from=2026-03-10T00:00:00Z', `to=${'9'.repeat(5000)}`, 'since=2026-03-01&from=2026-03-05'];
    const paths = [`/v1/checkins/${checkin}/insights/`, `/v1/followups/${checkin}/responses/export/`, `/v1/teams/${team}/insights/`, '/v1/checkins/%00/insights/', '/v1/teams/not-a-uuid/insights/', `/v1/checkins/${'x'.repeat(300)}/responses/export/`];
    const served: string[] = [];
    for (const path of paths) {
      for (const query of queries) {
        const res = await t.request('GET', `${path}?${query}`, { key: p.manager.key });
        if (res.status >= 500) served.push(`${path}?${query.slice(0, 40)}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(served).toEqual([]);
  });
});
