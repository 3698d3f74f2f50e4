/**
 * Calendar dates (`YYYY-MM-DD`) and date-times, strictly: a value that only looks like one (2026-02-30,
 * 2026-13-01, 24:00, 99:99:99) is refused, never rolled over to another day. Every date and date-time the API
 * reads (query parameters, body fields: http/fields.ts, http/query.ts) goes through here; local days in IANA time
 * zones come from Intl (no library).
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339: `T`, seconds, an optional fraction, `Z` or an offset `±HH:MM`. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;
/** The instants `toISOString()` writes with a four-digit year: 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z. */
const FIRST_INSTANT = -62_167_219_200_000;
const LAST_INSTANT = 253_402_300_799_999;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

function isRealDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1]);
}

/** A `YYYY-MM-DD` day that exists. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  return match !== null && isRealDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/**
 * A date-time whose every field is in range, `YYYY-MM-DDTHH:MM:SS[.fraction]` with `Z` or an offset such as
 * `+02:00` or `-05:30`, as the instant it names; null otherwise (and for an instant outside years 0000–9999 in
 * UTC, which the API could not write back). Fractions beyond milliseconds are dropped, as JavaScript keeps them.
 * `date.toISOString()` is the API's own form of it, and reads back as the same instant.
 */
export function parseDateTime(value: string): Date | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  if (!isRealDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (m[8] !== undefined) {
    const [offsetHours, offsetMins] = [Number(m[9]), Number(m[10])];
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const at = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, Number((m[7] ?? '').padEnd(3, '0').slice(0, 3)));
  const instant = at.getTime() - offsetMinutes * 60_000;
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT ? new Date(instant) : null;
}

/** The day after a calendar date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** ISO weekday of a calendar day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00.000Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * Every UTC offset in use since 1972 is a whole number of quarter hours, so a local midnight falls on a quarter-hour
 * boundary of UTC: within one quarter hour the local day cannot change, and the last answer per zone is reused.
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const lastLocalDate = new Map<string, { quarter: number; date: string }>();

/** The calendar day `now` falls on in `timeZone` (23:30 in America/Bogota is that Bogota day, not UTC's). */
export function localDate(now: Date, timeZone: string): string {
  const quarter = Math.floor(now.getTime() / QUARTER_HOUR_MS);
  const last = lastLocalDate.get(timeZone);
  if (last && last.quarter === quarter) return last.date;
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(now).map((p) => [p.type, p.value]));
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  if (lastLocalDate.size > 1000) lastLocalDate.clear(); // time zone names come from stored settings; stay bounded
  lastLocalDate.set(timeZone, { quarter, date });
  return date;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes `timeZone` is ahead of UTC at `instant` (Intl's shortOffset: "GMT+1", "GMT-3:30", "GMT"). */
function offsetMinutes(instant: Date, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' });
    if (offsetFormatters.size > 1000) offsetFormatters.clear();
    offsetFormatters.set(timeZone, f);
  }
  const name = f.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{1,2})(?::(\d{2}))?/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** The instant local midnight starts `date` in `timeZone` (the offset is read at that instant, so DST days work). */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const utcMidnight = Date.parse(`${date}T00:00:00.000Z`);
  let instant = utcMidnight - offsetMinutes(new Date(utcMidnight), timeZone) * 60_000;
  instant = utcMidnight - offsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}

/**
 * The instant a wall-clock time `HH:MM` happens on `date` in `timeZone`. A time that does not exist that day (the
 * hour skipped when clocks go forward) is moved forward by the gap (02:30 becomes 03:30); a time that happens twice
 * (clocks going back) is its first occurrence.
 */
export function localInstant(date: string, time: string, timeZone: string): Date {
  const wall = Date.parse(`${date}T${time}:00.000Z`);
  // The offsets in force around that day: one of them is the offset at the instant, whatever the day's transition.
  const before = offsetMinutes(new Date(wall - 86_400_000), timeZone);
  const after = offsetMinutes(new Date(wall + 86_400_000), timeZone);
  const candidates = [...new Set([before, after])].map((offset) => wall - offset * 60_000).sort((a, b) => a - b);
  const exact = candidates.find((instant) => wall - offsetMinutes(new Date(instant), timeZone) * 60_000 === instant);
  // In a gap neither is exact; the earlier offset's instant is the wall time shifted by the gap.
  return new Date(exact ?? wall - before * 60_000);
}
