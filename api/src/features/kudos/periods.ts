import { startOfLocalDay } from '../../lib/dates.ts';
import { addDays, isoWeekday, localDate } from '../../lib/dates.ts';
import type { Period } from './schema.ts';

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
