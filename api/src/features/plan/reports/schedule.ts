import { REPORT_KINDS } from '../../../db/tables.ts';
import type { ReportKind } from '../../../db/tables.ts';
import { addDays, isoWeekday, localDate, localInstant } from '../../../lib/dates.ts';
import { badRequest } from '../../../lib/errors.ts';
import { isValidTimeZone } from '../../../lib/time.ts';

/** When a report runs: ISO weekdays (1 = Monday … 7 = Sunday), a wall-clock `HH:MM`, in an IANA time zone. */
export interface Schedule {
  kind: ReportKind;
  weekdays: number[];
  time: string;
  timezone: string;
}

/** The weekdays a kind runs on when none are given: work days for daily reports, Monday and Friday for the week's. */
export const DEFAULT_WEEKDAYS: Record<ReportKind, number[]> = { daily: [1, 2, 3, 4, 5], week_start: [1], week_end: [5] };
export const DEFAULT_TIME = '09:00';

const invalid = (parameter: string, detail: string) => badRequest('invalid_schedule', detail, { parameter });

/** The schedule a body describes, over what it changes of `current`; 400 invalid_schedule (extra.parameter) for a bad field. */
export function readSchedule(input: { kind?: unknown; weekdays?: unknown; time?: unknown; timezone?: unknown }, current: Schedule | null, organizationTimezone: string): Schedule {
  const kind = input.kind ?? current?.kind;
  if (typeof kind !== 'string' || !(REPORT_KINDS as readonly string[]).includes(kind)) throw invalid('kind', `kind is one of ${REPORT_KINDS.join(', ')}.`);
  const weekdays = input.weekdays ?? current?.weekdays ?? DEFAULT_WEEKDAYS[kind as ReportKind];
  if (!Array.isArray(weekdays) || weekdays.length === 0 || !weekdays.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) || new Set(weekdays).size !== weekdays.length) {
    throw invalid('weekdays', 'weekdays is a list of distinct ISO weekdays, 1 (Monday) to 7 (Sunday).');
  }
  const time = input.time ?? current?.time ?? DEFAULT_TIME;
  if (typeof time !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) throw invalid('time', 'time is HH:MM, 00:00 to 23:59.');
  const timezone = input.timezone ?? current?.timezone ?? organizationTimezone;
  if (typeof timezone !== 'string' || timezone.length > 64 || !isValidTimeZone(timezone)) throw invalid('timezone', 'timezone is an IANA time zone, such as Europe/Berlin.');
  return { kind: kind as ReportKind, weekdays: [...(weekdays as number[])].sort((a, b) => a - b), time, timezone };
}

/**
 * The first instant after `after` at which the schedule runs: its time on one of its weekdays, in its time zone
 * (a time skipped by a clock change runs when the clock resumes, lib/dates.ts localInstant).
 */
export function nextRun(schedule: Schedule, after: Date): Date {
  const start = addDays(localDate(after, schedule.timezone), -1);
  for (let i = 0; i < 9; i++) {
    const day = addDays(start, i);
    if (!schedule.weekdays.includes(isoWeekday(day))) continue;
    const at = localInstant(day, schedule.time, schedule.timezone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('nextRun: a schedule with weekdays runs within 8 days');
}
