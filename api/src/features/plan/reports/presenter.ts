import type { ReportRunRow, ReportScheduleRow } from '../../../db/tables.ts';
import { bool, readJson } from '../../../lib/json.ts';
import { iso } from '../../../lib/time.ts';
import { timestamps } from '../frame/presenters.ts';

/** CONTRACT §9: `{uuid, name, kind, enabled, weekdays, time, timezone, channel?, email_recipients?, scope, last_run_at}`, and when it runs next. */
export function presentReport(row: ReportScheduleRow) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    kind: row.kind,
    enabled: bool(row.enabled),
    weekdays: readJson<number[]>(row.weekdays, []),
    time: row.time,
    timezone: row.timezone,
    channel: row.channel,
    email_recipients: readJson<string[] | null>(row.email_recipients, null),
    scope: readJson<{ boards: string[]; projects: string[] } | null>(row.scope, null),
    last_run_at: iso(row.last_run_at),
    next_run_at: iso(row.next_run_at),
    created_by: row.created_by_uuid,
    ...timestamps(row),
  };
}

export function presentRun(row: ReportRunRow) {
  return { uuid: row.uuid, id: row.uuid, report: row.report_uuid, trigger: row.trigger, status: 'enqueued', deliveries: Number(row.deliveries), ran_at: row.ran_at };
}
