import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { seedPeople, subscribeToAllEvents } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { activeDailyStandup, mergeIntoTodaysResponse } from './standup.ts';

const SUFFIX = ' (co-authored with deploy-bot)';

describe('Active daily stand-up and co-author merge (CONTRACT §6), called directly', () => {
  let t: TestApp;
  let p: People;
  const create = async (body: Record<string, unknown>) => (await t.request('POST', '/v1/checkins/create/', { key: p.adminKey, body })).body;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
    await subscribeToAllEvents(t, p.adminKey);
  });
  afterEach(async () => t.close());

  it('picks the first active check-in (by creation) the user takes part in whose schedule includes today in its own time zone', async () => {
    const member = p.member.user.uuid;
    expect(await activeDailyStandup(t.db, member, t.clock.now())).toBeNull();
    // Tuesday 2026-03-10 15:00Z. Created first but only on Mondays: not today.
    await create({ name: 'Mondays', schedule: { days: [1], timezone: 'UTC' }, participants: { user_uuids: [member] } });
    t.clock.advance(1000);
    const other = await create({ name: 'Not mine', schedule: { days: [2] }, participants: { user_uuids: [p.other.user.uuid] } });
    t.clock.advance(1000);
    const archived = await create({ name: 'Archived', schedule: { days: [2] }, participants: { user_uuids: [member] } });
    await t.request('DELETE', `/v1/checkins/${archived.uuid}/archive/`, { key: p.adminKey });
    t.clock.advance(1000);
    const team = (await t.request('POST', '/v1/teams/', { key: p.adminKey, body: { name: 'Platform' } })).body;
    await t.request('POST', `/v1/teams/${team.uuid}/member/`, { key: p.adminKey, body: { members: [{ uuid: member }] } });
    const viaTeam = await create({ name: 'Team stand-up', schedule: { days: [2], timezone: 'Asia/Tokyo' }, participants: { team_uuids: [team.uuid] } });
    t.clock.advance(1000);
    await create({ name: 'Later', schedule: { days: [2] }, participants: { user_uuids: [member] } });

    // 15:00:04Z is already Wednesday in Tokyo, which schedule day 2 (Tuesday) does not include: the next one wins.
    expect((await activeDailyStandup(t.db, member, t.clock.now()))?.checkin.name).toBe('Later');
    t.clock.set('2026-03-10T14:00:00.000Z'); // 23:00 Tuesday in Tokyo
    const tokyo = await activeDailyStandup(t.db, member, t.clock.now());
    expect(tokyo?.checkin.uuid).toBe(viaTeam.uuid);
    expect(tokyo?.date).toBe('2026-03-10');
    expect(tokyo?.questions.map((q) => q.position)).toEqual([0, 1, 2]);
    t.clock.set('2026-03-10T15:30:00.000Z'); // 00:30 Wednesday in Tokyo: the next candidate (UTC, Tuesday) wins
    expect((await activeDailyStandup(t.db, member, t.clock.now()))?.checkin.name).toBe('Later');
    expect((await activeDailyStandup(t.db, p.other.user.uuid, t.clock.now()))?.checkin.uuid).toBe(other.uuid);
    await t.request('PATCH', `/v1/checkins/${other.uuid}/config/`, { key: p.adminKey, body: { active: false } });
    expect(await activeDailyStandup(t.db, p.other.user.uuid, t.clock.now())).toBeNull();
  });

  it('merges lines: completed → first non-blocker question, in_progress → second, blockers → blocker question; each with the suffix', async () => {
    await create({
      name: 'Stand-up', schedule: { days: [2], timezone: 'America/Bogota' }, participants: { user_uuids: [p.member.user.uuid] },
      questions: [
        { question_type: 'text', question: 'Blockers?', is_blocker: true, required: false },
        { question_type: 'boolean', question: 'On track?' },
        { question_type: 'text', question: 'Done?' },
        { question_type: 'text', question: 'Next?' },
      ],
    });
    const standup = (await activeDailyStandup(t.db, p.member.user.uuid, t.clock.now()))!;
    const result = await t.db.transaction((trx) =>
      mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: standup, lines: { completed: ['Fixed login', 'Wrote tests'], in_progress: ['Billing'], blockers: ['Waiting on keys'] }, suffix: SUFFIX, now: t.clock.now() }),
    );
    expect(result?.created).toBe(true);
    const history = await t.request('GET', `/v1/checkins/${standup.checkin.uuid}/responses/`, { key: p.member.key });
    expect(history.body.results[0]).toMatchObject({ response_date: '2026-03-10', has_issue: true, response_completed: false });
    expect(history.body.results[0].responses.map((r: { question: string; response: unknown }) => [r.question, r.response])).toEqual([
      ['Blockers?', 'Waiting on keys (co-authored with deploy-bot)'],
      ['Done?', 'Fixed login (co-authored with deploy-bot)\nWrote tests (co-authored with deploy-bot)'],
      ['Next?', 'Billing (co-authored with deploy-bot)'],
    ]);
    const events = await t.db('organization_events').where('event', 'like', 'followups.%');
    expect(events.map((e: { event: string }) => e.event)).toEqual(['followups.response.completed']);
    expect(JSON.parse(events[0].payload).has_issue).toBe(true);
  });

  it('appends to an existing answer of the day, and writes plain content into the first question', async () => {
    const checkin = await create({
      name: 'Stand-up', schedule: { days: [2] }, participants: { user_uuids: [p.member.user.uuid] },
      questions: [{ question_type: 'text', question: 'Done?' }, { question_type: 'text', question: 'Next?' }],
    });
    await t.request('POST', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Planning' }, { index: 1, response: 'Coding' }] } });
    const standup = (await activeDailyStandup(t.db, p.member.user.uuid, t.clock.now()))!;
    const merged = await t.db.transaction((trx) =>
      mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: standup, lines: { content: 'Deployed v2' }, suffix: SUFFIX, now: t.clock.now() }),
    );
    expect(merged?.created).toBe(false);
    const again = await t.db.transaction((trx) =>
      mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: standup, lines: { blockers: ['No staging'] }, suffix: SUFFIX, now: t.clock.now() }),
    );
    expect(again?.written).toEqual({ [standup.questions[0].uuid]: ['No staging (co-authored with deploy-bot)'] });
    const row = (await t.request('GET', `/v1/checkins/${checkin.uuid}/responses/`, { key: p.member.key })).body.results[0];
    expect(row.responses.map((r: { response: unknown }) => r.response)).toEqual([
      'Planning\nDeployed v2 (co-authored with deploy-bot)\nNo staging (co-authored with deploy-bot)',
      'Coding',
    ]);
    expect(row.response_completed).toBe(true);
    const events = (await t.db('organization_events').where('event', 'like', 'followups.%').orderBy('uuid')).map((e: { event: string }) => e.event);
    expect(events).toEqual(['followups.response.completed', 'followups.response.updated', 'followups.response.updated']);
    expect(await t.db.transaction((trx) => mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: standup, lines: {}, suffix: SUFFIX }))).toBeNull();
  });

  it('records the event of an anonymous check-in without the user', async () => {
    await create({ name: 'Anon', is_anonymous: true, schedule: { days: [2] }, participants: { user_uuids: [p.member.user.uuid] } });
    const standup = (await activeDailyStandup(t.db, p.member.user.uuid, t.clock.now()))!;
    await t.db.transaction((trx) => mergeIntoTodaysResponse(trx, { userUuid: p.member.user.uuid, checkin: standup, lines: { completed: ['x'] }, suffix: SUFFIX, now: t.clock.now() }));
    const [event] = await t.db('organization_events').where('event', 'followups.response.completed');
    expect(JSON.parse(event.payload).user).toBeNull();
  });
});
