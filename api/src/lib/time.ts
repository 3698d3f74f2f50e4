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
