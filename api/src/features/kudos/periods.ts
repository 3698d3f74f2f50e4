import { addDays, isoWeekday, localDate } from '../checkins/dates.ts';
import type { Period } from './schema.ts';

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
 * The first local day of the current `period` in `timeZone`: weeks start on Monday, quarters in January, April,
 * July and October. `all` has no start.
 */
export function periodStartDay(period: Period, now: Date, timeZone: string): string | null {
  const today = localDate(now, timeZone);
  const [year, month] = today.split('-').map(Number);
  switch (period) {
    case 'week':
      return addDays(today, 1 - isoWeekday(today));
    case 'month':
      return `${today.slice(0, 7)}-01`;
    case 'quarter':
      return `${year}-${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
    case 'year':
      return `${year}-01-01`;
    case 'all':
      return null;
  }
}

/** The instant the current `period` began in `timeZone`, or null for `all`. */
export function periodStart(period: Period, now: Date, timeZone: string): Date | null {
  const day = periodStartDay(period, now, timeZone);
  return day ? startOfLocalDay(day, timeZone) : null;
}
