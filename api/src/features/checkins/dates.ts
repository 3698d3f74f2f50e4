/** Calendar arithmetic on YYYY-MM-DD strings, and local days in IANA time zones through Intl (no library). */
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

/** ISO weekday of a calendar day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00.000Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** `schedule.days` counts 0 = Sunday … 6 = Saturday; `frequency_on_days` is ISO (7 = Sunday) (CONTRACT §12). */
export const sundayZeroToIso = (days: number[]): number[] => [...new Set(days.map((d) => (d === 0 ? 7 : d)))].sort((a, b) => a - b);
export const isoToSundayZero = (days: number[]): number[] => [...new Set(days.map((d) => (d === 7 ? 0 : d)))].sort((a, b) => a - b);

export const parseDays = (stored: string): number[] => (stored ? stored.split(',').map(Number) : []);
export const formatDays = (isoDays: number[]): string => isoDays.join(',');
