import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendDuePrompts } from './feature.ts';
import { createCheckin, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

/** Who is asked by a prompts firing at `at`: their e-mail addresses, sorted. */
async function askedAt(app: LoopApp, at: string): Promise<string[]> {
  app.t.clock.set(at);
  const before = new Set((await app.t.db('checkin_prompts').select('uuid')).map((r) => r.uuid));
  await sendDuePrompts(app.t.deps);
  const rows = await app.t.db('checkin_prompts as p').join('users as u', 'u.uuid', 'p.user_uuid').select('p.uuid', 'u.email');
  return rows.filter((r) => !before.has(r.uuid)).map((r) => r.email.split('@')[0]).sort();
}

describe('When a check-in asks: time zones, clock changes, frequency, start and end', () => {
  let app: LoopApp;
  beforeEach(async () => {
    app = await startLoopApp();
    app.t.clock.set('2026-03-01T12:00:00.000Z');
  });
  afterEach(async () => app.close());

  it('asks a participant in another time zone at their own local time with use_participant_timezone', async () => {
    const { t, p } = app;
    await t.request('PATCH', `/v1/users/${p.other.user.uuid}/`, { key: p.adminKey, body: { timezone: 'America/New_York' } });
    await createCheckin(t, p, { use_participant_timezone: true });
    // Tuesday 2026-03-10: 09:00 in Berlin is 08:00Z; 09:00 in New York (summer time since 8 March) is 13:00Z.
    expect(await askedAt(app, '2026-03-10T07:59:00.000Z')).toEqual([]);
    expect(await askedAt(app, '2026-03-10T08:00:00.000Z')).toEqual(['mia']);
    expect(await askedAt(app, '2026-03-10T12:59:00.000Z')).toEqual([]);
    expect(await askedAt(app, '2026-03-10T13:00:00.000Z')).toEqual(['otto']);
    expect(await askedAt(app, '2026-03-10T13:01:00.000Z')).toEqual([]);
    const prompts = await t.db('checkin_prompts').orderBy('prompted_at').select('timezone', 'run_date');
    expect(prompts).toEqual([{ timezone: 'Europe/Berlin', run_date: '2026-03-10' }, { timezone: 'America/New_York', run_date: '2026-03-10' }]);
  });

  it('asks at a time skipped by the clock once the clock resumes, and once on a time the clock repeats', async () => {
    const { t, p } = app;
    await createCheckin(t, p, { schedule: { days: [0], time: '02:30', timezone: 'America/New_York' } });
    // Sunday 8 March 2026: 02:00 jumps to 03:00 in New York; 02:30 happens at 03:30 EDT (07:30Z).
    expect(await askedAt(app, '2026-03-08T07:29:00.000Z')).toEqual([]);
    expect(await askedAt(app, '2026-03-08T07:30:00.000Z')).toEqual(['mia', 'otto']);
    await createCheckin(t, p, { name: 'Fall back', schedule: { days: [0], time: '01:30', timezone: 'America/New_York' } });
    // Sunday 1 November 2026: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST); asked the first time only.
    expect(await askedAt(app, '2026-11-01T05:29:00.000Z')).toEqual([]);
    expect(await askedAt(app, '2026-11-01T05:30:00.000Z')).toEqual(['mia', 'otto']);
    expect(await askedAt(app, '2026-11-01T06:30:00.000Z')).toEqual([]);
    // The 02:30 check-in: 07:30Z (EST) that Sunday.
    expect(await askedAt(app, '2026-11-01T07:29:00.000Z')).toEqual([]);
    expect(await askedAt(app, '2026-11-01T07:30:00.000Z')).toEqual(['mia', 'otto']);
  });

  it('skips every other week with frequency 2, counted from start_on, and stops after end_on', async () => {
    const { t, p } = app;
    await createCheckin(t, p, { schedule: { days: [2], time: '09:00', timezone: 'UTC' }, frequency: 2, start_on: '2026-03-03', end_on: '2026-03-31' });
    expect(await askedAt(app, '2026-03-03T09:00:00.000Z')).toEqual(['mia', 'otto']);
    expect(await askedAt(app, '2026-03-10T09:00:00.000Z')).toEqual([]);
    expect(await askedAt(app, '2026-03-17T09:00:00.000Z')).toEqual(['mia', 'otto']);
    expect(await askedAt(app, '2026-03-24T09:00:00.000Z')).toEqual([]);
    expect(await askedAt(app, '2026-03-31T09:00:00.000Z')).toEqual(['mia', 'otto']);
    expect(await askedAt(app, '2026-04-14T09:00:00.000Z')).toEqual([]);
  });

  it('asks when the server comes back the same day, once, and never for a day that has ended', async () => {
    const { t, p } = app;
    await createCheckin(t, p, { schedule: { days: [2, 3], time: '09:00', timezone: 'UTC' } });
    // Down from before 09:00 on Tuesday until 22:00: asked then.
    expect(await askedAt(app, '2026-03-10T22:00:00.000Z')).toEqual(['mia', 'otto']);
    expect(await askedAt(app, '2026-03-10T23:59:00.000Z')).toEqual([]);
    // Down all Wednesday: nobody is asked for it on Thursday (not a check-in day), nor later.
    expect(await askedAt(app, '2026-03-12T10:00:00.000Z')).toEqual([]);
  });
});
