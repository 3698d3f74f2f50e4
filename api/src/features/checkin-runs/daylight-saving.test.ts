import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDuePrompts } from './feature.ts';
import { createCheckin, startLoopApp } from './loop-fixtures.ts';
import type { LoopApp } from './loop-fixtures.ts';

/**
 * Time zones that survive daylight saving (issue 36 item 7): the prompts job run every 15 minutes of a clock the
 * test controls, across the spring and autumn transitions of six zones (Tehran in 2021, its last year with summer
 * time; Adelaide is half an hour off the hour), asks each person exactly once per local day at their local time:
 * a time the clock repeats the first time it happens, a time the clock skips as many minutes after the skip as it
 * was meant to be after the day's start (02:30 on a night that jumps from 02:00 to 03:00 is asked at 03:30).
 * The expected instants are found here by reading wall clocks through Intl, independently of lib/dates.ts.
 */

const ZONES: [zone: string, year: number][] = [
  ['America/New_York', 2026], ['Europe/Berlin', 2026], ['Australia/Sydney', 2026], ['America/Santiago', 2026], ['Asia/Tehran', 2021], ['Australia/Adelaide', 2026],
];
const MINUTE = 60_000;
const STEP = 15 * MINUTE;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function offsetAt(ms: number, zone: string): number {
  let f = offsetFormats.get(zone);
  if (!f) offsetFormats.set(zone, (f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })));
  const name = f.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value;
  const m = /GMT([+-])(\d+)(?::(\d+))?/.exec(name);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

/** The wall clock at `ms` in `zone`, as `YYYY-MM-DDTHH:MM`. */
const wall = (ms: number, zone: string) => new Date(ms + offsetAt(ms, zone) * MINUTE).toISOString().slice(0, 16);

interface Transition { zone: string; at: number; before: number; after: number }

/** Every offset change of the zone in the year, found by reading the offset each quarter hour. */
function transitions(zone: string, year: number): Transition[] {
  const found: Transition[] = [];
  let previous = offsetAt(Date.UTC(year, 0, 1), zone);
  for (let ms = Date.UTC(year, 0, 1); ms < Date.UTC(year + 1, 0, 1); ms += STEP) {
    const offset = offsetAt(ms, zone);
    if (offset !== previous) found.push({ zone, at: ms, before: previous, after: offset });
    previous = offset;
  }
  return found;
}

/** When `time` on local `date` happens in `zone`: the first instant the wall clock reads it; in a gap, that much later. */
function expectedInstant(date: string, time: string, zone: string): string {
  const target = `${date}T${time}`;
  const around = Date.parse(`${target}:00.000Z`);
  for (let ms = around - 16 * 3_600_000; ms <= around + 16 * 3_600_000; ms += STEP) if (wall(ms, zone) === target) return new Date(ms).toISOString();
  const gap = offsetAt(around + 86_400_000, zone) - offsetAt(around - 86_400_000, zone);
  const shifted = new Date(Date.parse(`${target}:00.000Z`) + gap * MINUTE).toISOString().slice(0, 16);
  for (let ms = around - 16 * 3_600_000; ms <= around + 16 * 3_600_000; ms += STEP) if (wall(ms, zone) === shifted) return new Date(ms).toISOString();
  throw new Error(`${target} in ${zone}: no instant`);
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('The prompts job across daylight-saving transitions in six zones', () => {
  let app: LoopApp;
  beforeAll(async () => {
    app = await startLoopApp();
  });
  afterAll(async () => app.close());

  const cases = ZONES.flatMap(([zone, year]) => transitions(zone, year));
  it('finds a spring and an autumn transition in each zone', () => {
    expect(cases.map((c) => `${c.zone} ${c.after > c.before ? 'forward' : 'back'}`)).toEqual(ZONES.flatMap(([zone]) => (zone.startsWith('Australia') || zone === 'America/Santiago' ? [`${zone} back`, `${zone} forward`] : [`${zone} forward`, `${zone} back`])));
  });

  it.each(cases.map((c) => [`${c.zone} ${wall(c.at, c.zone)} (${c.after > c.before ? 'clocks forward' : 'clocks back'})`, c] as const))('%s: each person once a day at their local time', async (_name, c) => {
    const { t, p } = app;
    // The hour skipped or repeated, on the wall clock: [from, to).
    const from = Math.min(c.at + c.before * MINUTE, c.at + c.after * MINUTE);
    const middle = new Date(from + 30 * MINUTE).toISOString();
    const day = middle.slice(0, 10);
    const oddTime = middle.slice(11, 16);
    const first = addDays(day, -1);
    const last = addDays(day, 1);
    t.clock.set(new Date(Date.parse(`${first}T00:00:00.000Z`) - 2 * 86_400_000).toISOString());
    // Mia lives in the zone (her own setting); Otto keeps the organization's (UTC).
    expect((await t.request('PATCH', '/v1/me/', { key: p.member.key, body: { timezone: c.zone } })).status).toBe(200);
    const every = { days: [0, 1, 2, 3, 4, 5, 6], timezone: c.zone };
    const mia = { user_uuids: [p.member.user.uuid] };
    const checkins = [
      { time: oddTime, uuid: (await createCheckin(t, p, { name: `${c.zone} ${day} odd`, schedule: { ...every, time: oddTime }, participants: mia, start_on: first, end_on: last })).uuid },
      { time: '00:00', uuid: (await createCheckin(t, p, { name: `${c.zone} ${day} midnight`, schedule: { ...every, time: '00:00' }, participants: mia, start_on: first, end_on: last })).uuid },
      { time: '09:00', uuid: (await createCheckin(t, p, { name: `${c.zone} ${day} nine`, schedule: { ...every, time: '09:00' }, participants: mia, start_on: first, end_on: last })).uuid },
    ];
    const personal = await createCheckin(t, p, {
      name: `${c.zone} ${day} personal`, schedule: { days: every.days, time: oddTime, timezone: 'UTC' }, use_participant_timezone: true, start_on: first, end_on: last,
    });
    // The job every 15 minutes from an hour before the first local day starts until an hour after the last ends.
    const localMidnight = (date: string) => Date.parse(`${date}T00:00:00.000Z`) - offsetAt(Date.parse(`${date}T00:00:00.000Z`), c.zone) * MINUTE;
    for (let ms = localMidnight(first) - 3_600_000; ms <= localMidnight(addDays(last, 1)) + 3_600_000; ms += STEP) {
      t.clock.set(new Date(ms).toISOString());
      await sendDuePrompts(t.deps);
    }
    const days = [first, day, last];
    for (const checkin of [...checkins, { time: oddTime, uuid: personal.uuid }]) {
      const prompts = await t.db('checkin_prompts').where({ checkin_uuid: checkin.uuid, user_uuid: p.member.user.uuid }).orderBy('prompted_at').select('run_date', 'prompted_at', 'timezone');
      expect(prompts.map((r) => ({ ...r, prompted_at: new Date(r.prompted_at).toISOString() })), `${checkin.time}`).toEqual(
        days.map((date) => ({ run_date: date, prompted_at: expectedInstant(date, checkin.time, c.zone), timezone: c.zone })),
      );
    }
    // Otto, on the personal check-in in UTC: once a day, never twice.
    const otto: { run_date: string }[] = await t.db('checkin_prompts').where({ checkin_uuid: personal.uuid, user_uuid: p.other.user.uuid }).select('run_date');
    expect(new Set(otto.map((r) => r.run_date)).size).toBe(otto.length);
  }, 180_000);
});
