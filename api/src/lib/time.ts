const CANONICAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** ISO 8601 UTC with `Z` for a value stored as text (SQLite) or returned as a Date (PostgreSQL). */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  // What toISOString() wrote comes back unchanged; skip parsing and formatting it again.
  if (typeof value === 'string' && CANONICAL_ISO.test(value)) return value;
  return new Date(String(value)).toISOString();
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Seconds from `now` to the next 00:00 UTC: the reset of every daily cap. */
export function secondsToUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
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
