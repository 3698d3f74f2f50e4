import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChatAndMailApp } from '../../../test/plan-fixtures.ts';
import { seedPeople, subscribeToAllEvents } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { activeDailyStandup, mergeIntoTodaysResponse } from '../checkins/standup.ts';
import { sendDuePrompts, sendDueReports } from './feature.ts';
import { createCheckin } from './loop-fixtures.ts';

describe('Check-ins on Slack: prompts as direct messages with an answer button, reports in the report channels', () => {
  let app: Awaited<ReturnType<typeof startChatAndMailApp>>;
  let p: People;
  beforeEach(async () => {
    app = await startChatAndMailApp([{ id: 'C1', name: 'standup' }]);
    app.t.clock.set('2026-03-10T07:00:00.000Z');
    p = await seedPeople(app.t);
    await subscribeToAllEvents(app.t, p.adminKey);
    expect((await app.t.request('PATCH', '/v1/organization/', { key: p.adminKey, body: { platform: { kind: 'slack', bot_token: 'xoxb-test-token' } } })).status).toBe(200);
  });
  afterEach(async () => app.close());

  const posts = () => app.rx.received.filter((r) => r.url === '/api/chat.postMessage').map((r) => r.json);

  it('asks by e-mail and Slack DM (with the link as a button), and posts the team report with co-authored parts to the report channel', async () => {
    const { t, rx, sink } = app;
    const checkin = await createCheckin(t, p, { report_channels: ['C1'], time_for_report: '17:00' });
    t.clock.set('2026-03-10T08:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(2);
    await t.deps.delivery.runDue();
    expect(sink.messages).toHaveLength(2);
    const lookups = rx.received.filter((r) => r.url.startsWith('/api/users.lookupByEmail')).map((r) => new URL(r.url, 'http://x').searchParams.get('email')).sort();
    expect(lookups).toEqual([p.member.user.email, p.other.user.email].sort());
    const dm = posts()[0];
    expect(dm.text).toContain('Time for Daily (2026-03-10).');
    expect(JSON.stringify(dm.blocks)).toMatch(/"url":"http:\/\/rollcall\.example\.com\/checkins\/answer\/[0-9A-Za-z]{43}"|\/checkins\/answer\/[0-9A-Za-z]{43}/);
    // Mia answers through the API; her agent's co-authored report is appended to it with its suffix.
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Importer' }, { index: 1, response: 'Exporter' }] } });
    const standup = (await activeDailyStandup(t.db, p.member.user.uuid, t.clock.now()))!;
    await t.db.transaction((trx) => mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: standup, lines: { completed: ['Deployed v2'] }, suffix: ' (co-authored with deploy-bot)', now: t.clock.now() }));
    rx.received.length = 0;
    sink.messages.length = 0;
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    expect(sink.messages).toEqual([]);
    expect(posts()).toHaveLength(1);
    expect(posts()[0].channel).toBe('C1');
    expect(posts()[0].text).toContain('1 of 2 answered.\n\nMia Member\nWhat did you do yesterday?\n  Importer\n  Deployed v2 (co-authored with deploy-bot)\nWhat will you do today?\n  Exporter');
    expect(posts()[0].text).toContain('Not answered yet: Otto Member');
    const events = (await t.db('organization_events').select('event', 'payload')).filter((e) => e.event.startsWith('checkin.'));
    expect(events.map((e) => e.event)).toEqual(['checkin.prompted', 'checkin.prompted', 'checkin.report.sent']);
    expect(JSON.parse(events[2].payload)).toMatchObject({ followup: { uuid: checkin.uuid, name: 'Daily' }, report_date: '2026-03-10', destinations: ['slack:channel:C1'], answered: 1, not_finished: 0, missing: 1, away: 0 });
  });

  it('posts each answer as it comes with send_reports_one_by_one, once, and no team report', async () => {
    const { t } = app;
    const checkin = await createCheckin(t, p, { report_channels: ['C1'], send_reports_one_by_one: true, time_for_report: '17:00' });
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'First' }, { index: 1, response: 'Then' }] } });
    expect(await sendDueReports(t.deps)).toBe(1);
    expect(await sendDueReports(t.deps)).toBe(0);
    // An answer in part (a co-authored line alone) is not posted: the person has not answered yet.
    const standup = (await activeDailyStandup(t.db, p.other.user.uuid, t.clock.now()))!;
    await t.db.transaction((trx) => mergeIntoTodaysResponse(trx, { userUuid: p.other.user.uuid, checkin: standup, lines: { completed: ['Deployed v2'] }, suffix: ' (co-authored with deploy-bot)', now: t.clock.now() }));
    expect(await sendDueReports(t.deps)).toBe(0);
    await t.request('PUT', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.other.key, body: { responses: [{ index: 0, response: 'Second' }, { index: 1, response: 'More' }] } });
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    expect(posts().map((post) => post.text)).toEqual([
      'Daily — 2026-03-10\n\nMia Member\nWhat did you do yesterday?\n  First\nWhat will you do today?\n  Then',
      'Daily — 2026-03-10\n\nOtto Member\nWhat did you do yesterday?\n  Second\nWhat will you do today?\n  More',
    ]);
  });

  it('time off: PATCH /v1/users/{uuid}/ time_off; away people are not asked, show as away, and send-message skips them', async () => {
    const { t } = app;
    const patch = (uuid: string, body: unknown, key = p.adminKey) => t.request('PATCH', `/v1/users/${uuid}/`, { key, body });
    const bad = await patch(p.other.user.uuid, { time_off: [{ start: '2026-03-12', end: '2026-03-09' }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ 'time_off.0.end': ['Must be on or after start.'] });
    expect((await patch(p.other.user.uuid, { time_off: [{ start: '2026-03-32', end: '2026-04-01' }] })).status).toBe(400);
    const set = await patch(p.other.user.uuid, { time_off: [{ start: '2026-03-20', end: '2026-03-21' }, { start: '2026-03-09', end: '2026-03-12' }] }, p.other.key);
    expect(set.status).toBe(200);
    expect(set.body.time_off).toEqual([{ start: '2026-03-09', end: '2026-03-12' }, { start: '2026-03-20', end: '2026-03-21' }]);
    expect((await t.request('GET', `/v1/users/${p.other.user.uuid}/`, { key: p.member.key })).body.time_off).toEqual(set.body.time_off);
    // Another member may not set someone else's.
    expect((await patch(p.other.user.uuid, { time_off: [] }, p.member.key)).status).toBe(403);

    await createCheckin(t, p, { report_channels: ['C1'], time_for_report: '17:00' });
    t.clock.set('2026-03-10T08:00:00.000Z');
    expect(await sendDuePrompts(t.deps)).toBe(1); // Mia only
    t.clock.set('2026-03-10T16:00:00.000Z');
    expect(await sendDueReports(t.deps)).toBe(1);
    await t.deps.delivery.runDue();
    // Posts to different targets go side by side: the report is the channel's.
    const report = posts().filter((post) => post.channel === 'C1').at(-1)!;
    expect(report.text).toContain('0 of 1 answered, 1 away.');
    expect(report.text).toContain('Away: Otto Member');

    app.rx.received.length = 0;
    const sent = await t.request('POST', '/v1/send-message/', { key: p.adminKey, body: { message: 'Hi', target_users: [p.member.user.uuid, p.other.user.uuid], skip_users_on_time_off: true } });
    expect(sent.status).toBe(200);
    expect(sent.body.targets).toBe(1);
    await t.deps.delivery.runDue();
    const sentTo = (await t.db('deliveries').where({ kind: 'chat.message' }).select('destination', 'status')).map((d) => [d.destination, d.status]);
    expect(sentTo).toEqual([[`slack:user:${p.member.user.email}`, 'delivered']]);
  });
});
