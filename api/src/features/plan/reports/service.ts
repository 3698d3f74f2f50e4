import type { Actor } from '../../../auth/credentials.ts';
import type { Db, Executor } from '../../../db/connection.ts';
import type { ReportRunRow, ReportScheduleRow } from '../../../db/tables.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { isUuid, uuidv7 } from '../../../lib/ids.ts';
import { bool, readJson, writeJson } from '../../../lib/json.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { enqueueEmail } from '../../../outbox/deliveries.ts';
import { lockOrganization } from '../../../outbox/plan-changes.ts';
import { platformName } from '../../chat-platform/connection.ts';
import { enqueueChatPost } from '../../chat-platform/enqueue.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { pageOf } from '../frame/lists.ts';
import { checkScope } from '../notifications/routing.ts';
import type { RouteScope } from '../notifications/routing.ts';
import { buildReport } from './builder.ts';
import type { Report } from './builder.ts';
import { presentReport } from './presenter.ts';
import { nextRun, readSchedule } from './schedule.ts';
import type { Schedule } from './schedule.ts';
import { reportChannelOf } from './schema.ts';
import type { CreateReportInput, UpdateReportInput } from './schema.ts';

/**
 * Scheduled reports: at most 10 per organization (report_schedules_limit_reached), each sent to a chat channel
 * and/or e-mail recipients (people of the organization) at its time on its weekdays in its time zone. The
 * scheduler claims a due report by moving its `next_run_at` past now in the transaction that enqueues it, so a
 * report is sent once per due time, and once in all for the times missed while the server was down.
 */
export const REPORT_LIMIT = 10;
/** How far back a daily report looks when it has never run (and at most). */
const DAY_MS = 86_400_000;

const scheduleOf = (row: ReportScheduleRow): Schedule => ({ kind: row.kind, weekdays: readJson<number[]>(row.weekdays, []), time: row.time, timezone: row.timezone });

async function reportOf(db: Executor, actor: Actor, uuid: string): Promise<ReportScheduleRow> {
  const row: ReportScheduleRow | undefined = await db('plan_report_schedules').where({ uuid }).first();
  if (!row || row.organization_uuid !== actor.organization.uuid) throw notFound();
  return row;
}

export const getReport = (r: PlanRead, uuid: string) => reportOf(r.db, r.actor, uuid);

export async function listReports(r: PlanRead, page: PageRequest): Promise<{ count: number; rows: ReportScheduleRow[] }> {
  const rows: ReportScheduleRow[] = await r.db('plan_report_schedules').where({ organization_uuid: r.actor.organization.uuid }).orderBy([{ column: 'created_at' }, { column: 'uuid' }]);
  return { count: rows.length, rows: rows.slice(page.offset, page.offset + page.limit) };
}

/**
 * E-mail recipients are people of the organization (reports never leave it): 400 invalid_schedule otherwise. Each is
 * named by address or, as the DailyBot client does, by user uuid (stored as the person's address).
 */
async function checkRecipients(db: Executor, actor: Actor, given: string[] | null | undefined): Promise<string[] | null> {
  if (!given || given.length === 0) return null;
  const uuids = given.filter(isUuid).map((u) => u.toLowerCase());
  const people: { uuid: string; email: string }[] = uuids.length ? await db('users').where({ organization_uuid: actor.organization.uuid }).whereIn('uuid', uuids).select('uuid', 'email') : [];
  const unknown = uuids.filter((u) => !people.some((p) => p.uuid === u));
  if (unknown.length) throw badRequest('invalid_schedule', `Reports go to people of the organization only; not one: ${unknown.join(', ')}.`, { parameter: 'email_recipients' });
  const emails = [...given.filter((e) => !isUuid(e)), ...people.map((p) => p.email)];
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  const found = new Set((await db('users').where({ organization_uuid: actor.organization.uuid }).whereIn(db.raw('lower(email)') as unknown as string, wanted).select('email')).map((u: { email: string }) => u.email.toLowerCase()));
  const strangers = wanted.filter((e) => !found.has(e));
  if (strangers.length) throw badRequest('invalid_schedule', `Reports go to people of the organization only; not one: ${strangers.join(', ')}.`, { parameter: 'email_recipients' });
  return wanted;
}

function checkDestination(input: unknown, recipients: string[] | null): string | null {
  const channel = reportChannelOf(input);
  if (channel === false) throw badRequest('invalid_schedule', 'channel is a channel\'s external_id (GET /v1/plan/channels/), or {"external_id": …}.', { parameter: 'channel' });
  if (!channel && !recipients) throw badRequest('invalid_schedule', 'A report goes to a channel, to email_recipients, or both.', { parameter: 'channel' });
  return channel;
}

/** The columns a report's settings are stored in. */
function settingColumns(s: { name: string; enabled: boolean; schedule: Schedule; channel: string | null; recipients: string[] | null; scope: RouteScope | null }) {
  return {
    name: s.name,
    kind: s.schedule.kind,
    enabled: s.enabled,
    weekdays: writeJson(s.schedule.weekdays),
    time: s.schedule.time,
    timezone: s.schedule.timezone,
    channel: s.channel,
    email_recipients: s.recipients ? writeJson(s.recipients) : null,
    scope: s.scope ? writeJson(s.scope) : null,
  };
}

const record = (w: PlanWrite, row: ReportScheduleRow, change: 'created' | 'updated', fields: string[] = []) =>
  w.changes.record({ kind: 'report_schedule', uuid: row.uuid, change, board: null, fields, snapshot: presentReport(row) });

/** The channel was checked against the platform before the transaction opened (the route's prepare). */
export async function createReport(w: PlanWrite, input: CreateReportInput): Promise<ReportScheduleRow> {
  const schedule = readSchedule(input, null, w.actor.organization.timezone ?? 'UTC');
  const recipients = await checkRecipients(w.db, w.actor, input.email_recipients);
  const channel = checkDestination(input.channel, recipients);
  const scope = await checkScope(w.db, w.actor, input.scope);
  await lockOrganization(w.db, w.actor.organization.uuid, w.now);
  const [{ count }] = await w.db('plan_report_schedules').where({ organization_uuid: w.actor.organization.uuid }).count({ count: '*' });
  if (Number(count) >= REPORT_LIMIT) throw badRequest('report_schedules_limit_reached', `This organization already has ${REPORT_LIMIT} scheduled reports.`, { limit: REPORT_LIMIT });
  const enabled = input.enabled ?? true;
  const row: ReportScheduleRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: w.actor.organization.uuid,
    ...settingColumns({ name: input.name.trim(), enabled, schedule, channel, recipients, scope }),
    created_by_uuid: w.actor.user.uuid,
    last_run_at: null,
    next_run_at: enabled ? nextRun(schedule, w.now).toISOString() : null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
  };
  await w.db('plan_report_schedules').insert(row);
  await record(w, row, 'created');
  return row;
}

export async function updateReport(w: PlanWrite, uuid: string, input: UpdateReportInput): Promise<ReportScheduleRow> {
  const current = await reportOf(w.db, w.actor, uuid);
  const schedule = readSchedule(input, scheduleOf(current), w.actor.organization.timezone ?? 'UTC');
  const recipients = input.email_recipients === undefined ? readJson<string[] | null>(current.email_recipients, null) : await checkRecipients(w.db, w.actor, input.email_recipients);
  const channel = checkDestination(input.channel === undefined ? current.channel : input.channel, recipients);
  const scope = input.scope === undefined ? readJson<RouteScope | null>(current.scope, null) : await checkScope(w.db, w.actor, input.scope);
  const enabled = input.enabled ?? bool(current.enabled);
  const next = settingColumns({ name: input.name?.trim() ?? current.name, enabled, schedule, channel, recipients, scope });
  const changes = Object.fromEntries(Object.entries(next).filter(([k, v]) => (k === 'enabled' ? v !== bool(current.enabled) : v !== current[k as keyof ReportScheduleRow]))) as Partial<ReportScheduleRow>;
  if (Object.keys(changes).length === 0) return current;
  // A changed schedule (or one enabled again) runs next at its next time from now; a disabled one not at all.
  changes.next_run_at = enabled ? nextRun(schedule, w.now).toISOString() : null;
  const updated = { ...current, ...changes, updated_at: w.now.toISOString() };
  await w.db('plan_report_schedules').where({ uuid }).update({ ...changes, updated_at: updated.updated_at });
  await record(w, updated, 'updated', Object.keys(changes).filter((f) => f !== 'next_run_at'));
  return updated;
}

export async function deleteReport(w: PlanWrite, uuid: string) {
  const row = await reportOf(w.db, w.actor, uuid);
  await w.db('plan_report_runs').where({ report_uuid: uuid }).delete();
  await w.db('plan_report_schedules').where({ uuid }).delete();
  await w.changes.record({ kind: 'report_schedule', uuid, change: 'deleted', board: null, snapshot: null });
  return { deleted: { object_kind: 'report_schedule', uuid, name: row.name } };
}

/** The period a run covers: since the last run for a daily report (at most 7 days), the last 7 days for the week's. */
function periodStart(row: ReportScheduleRow, now: Date): Date {
  const week = new Date(now.getTime() - 7 * DAY_MS);
  if (row.kind !== 'daily') return week;
  const since = row.last_run_at ? new Date(row.last_run_at) : new Date(now.getTime() - DAY_MS);
  return since < week ? week : since;
}

/** The report as it would be sent now. */
export function previewReport(db: Executor, row: ReportScheduleRow, now: Date): Promise<Report> {
  return buildReport(db, { organizationUuid: row.organization_uuid, name: row.name, kind: row.kind, timezone: row.timezone, scope: readJson<RouteScope | null>(row.scope, null), from: periodStart(row, now) }, now);
}

/** Builds the report and enqueues it (chat post and/or one e-mail to the recipients), in the caller's transaction; the run is recorded. */
async function sendReport(db: Executor, row: ReportScheduleRow, now: Date, trigger: ReportRunRow['trigger']): Promise<{ report: Report; deliveries: number }> {
  const report = await previewReport(db, row, now);
  let deliveries = 0;
  if (row.channel) {
    const platform = await platformName(db, row.organization_uuid);
    if (platform) {
      deliveries += await enqueueChatPost(db, { organizationUuid: row.organization_uuid, platform, text: report.text, channels: [row.channel], users: [], kind: `plan.report.${row.kind}`, subjectUuid: row.uuid }, now);
    }
  }
  const recipients = readJson<string[] | null>(row.email_recipients, null);
  if (recipients?.length) {
    await enqueueEmail(db, { organizationUuid: row.organization_uuid, kind: `plan.report.${row.kind}`, message: { to: recipients, subject: `[Rollcall] ${report.title}`, text: report.text } }, now);
    deliveries++;
  }
  await db('plan_report_runs').insert({ uuid: uuidv7(now.getTime()), report_uuid: row.uuid, organization_uuid: row.organization_uuid, trigger, deliveries, ran_at: now.toISOString() });
  return { report, deliveries };
}

/** POST …/reports/{r}/run/: sends the report now (its schedule is unchanged). */
export async function runReportNow(w: PlanWrite, uuid: string): Promise<{ report: Report; deliveries: number }> {
  const row = await reportOf(w.db, w.actor, uuid);
  const sent = await sendReport(w.db, row, w.now, 'manual');
  await w.db('plan_report_schedules').where({ uuid }).update({ last_run_at: w.now.toISOString() });
  return sent;
}

/**
 * The scheduler's minute: every enabled report whose next run is due is claimed (its next_run_at moved to its next
 * time after now, in the transaction that enqueues it: a second server or a second run finds it no longer due)
 * and sent once, however many of its times passed while the server was down. Answers how many were sent.
 */
export async function runDueReports(db: Db, now: Date): Promise<number> {
  const due: ReportScheduleRow[] = await db('plan_report_schedules').where('next_run_at', '<=', now.toISOString()).orderBy('next_run_at');
  let sent = 0;
  for (const row of due) {
    if (!bool(row.enabled)) continue;
    const claimed = await db.transaction(async (trx) => {
      const moved = await trx('plan_report_schedules')
        .where({ uuid: row.uuid, next_run_at: row.next_run_at })
        .update({ next_run_at: nextRun(scheduleOf(row), now).toISOString(), last_run_at: now.toISOString() });
      if (moved === 0) return false;
      await sendReport(trx, row, now, 'schedule');
      return true;
    });
    if (claimed) sent++;
  }
  return sent;
}

/** The report's runs, newest first: when, by its schedule or asked for, and how many deliveries each enqueued. */
export async function listReportRuns(r: PlanRead, uuid: string, page: PageRequest): Promise<{ count: number; rows: ReportRunRow[] }> {
  await reportOf(r.db, r.actor, uuid);
  return pageOf(() => r.db('plan_report_runs').where({ report_uuid: uuid }), page, (query) => query.orderBy([{ column: 'ran_at', order: 'desc' }, { column: 'uuid', order: 'desc' }]));
}
