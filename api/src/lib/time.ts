import { parseDateTime } from './dates.ts';

const CANONICAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let reportUnreadable: (value: string) => void = () => {};
const reported = new Set<string>();

/**
 * Where a stored timestamp that cannot be read is reported (the app hands its logger over), each distinct value
 * once per app: a row written before dates were checked strictly must not turn every list it appears in into a
 * 500.
 */
export function onUnreadableTimestamp(report: (value: string) => void): void {
  reportUnreadable = report;
  reported.clear();
}

function unreadable(value: unknown): null {
  const text = String(value);
  if (!reported.has(text)) {
    if (reported.size >= 1000) reported.clear();
    reported.add(text);
    reportUnreadable(text);
  }
  return null;
}

/**
 * ISO 8601 UTC with `Z` for a value stored as text (SQLite) or returned as a Date (PostgreSQL); null for none, and
 * for a stored value that is not a readable instant (reported once, see onUnreadableTimestamp).
 */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  // What toISOString() wrote comes back unchanged; skip parsing and formatting it again.
  if (typeof value === 'string' && CANONICAL_ISO.test(value)) return value;
  // Strictly: JavaScript's own reading turns 2026-02-30 into March 2.
  const at = value instanceof Date ? value : parseDateTime(String(value));
  return at === null || Number.isNaN(at.getTime()) ? unreadable(value) : at.toISOString();
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
