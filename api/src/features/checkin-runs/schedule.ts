import { addDays, isoWeekday, localDate, localInstant, startOfLocalDay } from '../../lib/dates.ts';
import { bool, readJson } from '../../lib/json.ts';
import { holidayFor } from '../../lib/holidays.ts';
import { scheduledOn } from '../checkins/service.ts';
import type { CheckinRow } from '../../db/tables.ts';

/**
 * When a check-in asks, reminds and reports: pure functions of its row and an instant, so the jobs and the
 * tests agree. Days and times are wall-clock in a time zone: the check-in's, or each participant's own with
 * `use_participant_timezone` (lib/dates.ts localInstant: a time skipped by a clock change happens when the
 * clock resumes, a time that happens twice happens the first time).
 */

/** The settings of the loop, read from the check-in's stored settings (CONTRACT §12), with their defaults. */
export interface LoopSettings {
  frequency: number;
  personalTimeZones: boolean;
  remindersMax: number;
  remindersEveryMinutes: number;
  timeForReport: string | null;
  oneByOne: boolean;
  intro: string | null;
  outro: string | null;
  /** Public holidays nobody is asked on (lib/holidays.ts); a participant's own calendar wins. */
  holidayCalendar: string | null;
  /** Days a blocker stays open before the check-in's managers hear of it; null: never. */
  blockerAlertDays: number | null;
}

export function loopSettings(row: Pick<CheckinRow, 'settings'>): LoopSettings {
  const s = readJson<Record<string, unknown>>(row.settings, {});
  const int = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isInteger(value) ? value : fallback);
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  return {
    frequency: Math.max(1, int(s.frequency, 1)),
    personalTimeZones: s.use_participant_timezone === true,
    remindersMax: Math.max(0, int(s.reminders_max_count, 0)),
    remindersEveryMinutes: Math.max(0, int(s.reminders_frequency_time, 0)),
    timeForReport: typeof s.time_for_report === 'string' && /^\d{2}:\d{2}$/.test(s.time_for_report) ? s.time_for_report : null,
    oneByOne: s.send_reports_one_by_one === true,
    intro: text(s.custom_template_intro),
    outro: text(s.custom_template_outro),
    holidayCalendar: text(s.holiday_calendar),
    blockerAlertDays: s.blocker_alert_days === null ? null : Math.max(1, int(s.blocker_alert_days, 3)),
  };
}

/** The public holiday `person` has on their local `date` (their own calendar, else the check-in's), or null. */
export const holidayOf = (person: { holiday_calendar?: string | null }, settings: Pick<LoopSettings, 'holidayCalendar'>, date: string): string | null =>
  holidayFor(person.holiday_calendar, settings.holidayCalendar, date);

/** The Monday of `date`'s ISO week. */
const mondayOf = (date: string): string => addDays(date, 1 - isoWeekday(date));

/**
 * Whether the check-in runs on `date`: its weekdays, `start_on`/`end_on`, and `frequency` (every N weeks,
 * counted from the week of `start_on`, or of the check-in's creation in its own time zone).
 */
export function runsOn(row: CheckinRow, date: string, frequency = loopSettings(row).frequency): boolean {
  if (!scheduledOn(row, date, isoWeekday(date))) return false;
  if (frequency <= 1) return true;
  const anchor = mondayOf(row.start_on ?? localDate(new Date(row.created_at), row.timezone));
  const weeks = Math.round((Date.parse(mondayOf(date)) - Date.parse(anchor)) / (7 * 86_400_000));
  return weeks >= 0 && weeks % frequency === 0;
}

/** The instant local `date` ends in `timeZone` (the next day's midnight). */
export const endOfLocalDay = (date: string, timeZone: string): Date => startOfLocalDay(addDays(date, 1), timeZone);

/**
 * The asking due by `now` in `timeZone`: today's local day there, when the check-in runs that day and its time
 * has come. Null otherwise; a day that has ended is never asked (a server down all day asks nobody for it).
 */
export function dueAsking(row: CheckinRow, timeZone: string, now: Date, settings = loopSettings(row)): { date: string; dueAt: Date } | null {
  if (!bool(row.active) || bool(row.is_archived)) return null;
  const date = localDate(now, timeZone);
  if (!runsOn(row, date, settings.frequency)) return null;
  const dueAt = localInstant(date, row.time, timeZone);
  return dueAt.getTime() <= now.getTime() ? { date, dueAt } : null;
}

/** When the team report of the check-in's local `date` goes: `time_for_report` in its time zone, else the day's last minute. */
export const reportInstant = (row: CheckinRow, date: string, settings = loopSettings(row)): Date =>
  localInstant(date, settings.timeForReport ?? '23:59', row.timezone);

/**
 * The last instant a person asked on `date` in `timeZone` is reminded: the end of their day, or the report's
 * time when the report of that day comes first.
 */
export function remindUntil(row: CheckinRow, date: string, timeZone: string, settings = loopSettings(row)): Date {
  const end = endOfLocalDay(date, timeZone);
  if (settings.oneByOne || !settings.timeForReport) return end;
  const report = reportInstant(row, localDate(localInstant(date, row.time, timeZone), row.timezone), settings);
  return report.getTime() < end.getTime() ? report : end;
}
