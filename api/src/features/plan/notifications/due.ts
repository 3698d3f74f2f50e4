import type { Db, Executor } from '../../../db/connection.ts';
import { addDays, localDate, startOfLocalDay } from '../../../lib/dates.ts';
import { notify } from './notify.ts';

/**
 * Due-date notices, sent by a job every minute: `task.due_soon` the day before a task's due date, `task.due` on
 * the day, `task.overdue` the day after (or as soon as a due date is set in the past), each from 08:00 in the
 * owner's time zone (the organization's when the owner has none), to the owner, for live tasks not done or
 * canceled. Each is sent once per task, due date and kind: `plan_due_notices` holds the claim, inserted in the
 * transaction that writes the notification, so a second run or a second server sends nothing. A task whose due
 * date moves gets the notices of its new date.
 */
export const DUE_HOUR = 8;
/** Overdue notices are not sent for tasks due longer ago than this (a due date set far in the past stays quiet). */
const OVERDUE_WINDOW_DAYS = 7;

interface Candidate {
  uuid: string;
  organization_uuid: string;
  board_uuid: string;
  number: number;
  title: string;
  due_date: string;
  owner_uuid: string;
  state_uuid: string;
}

const NOTICE_TEXT: Record<string, (key: string, due: string) => string> = {
  'task.due_soon': (key, due) => `${key} is due tomorrow (${due}).`,
  'task.due': (key, due) => `${key} is due today (${due}).`,
  'task.overdue': (key, due) => `${key} was due on ${due}.`,
};

/** Which notice a due date calls for on the owner's local day, or null. */
function noticeFor(due: string, today: string): string | null {
  if (due === addDays(today, 1)) return 'task.due_soon';
  if (due === today) return 'task.due';
  if (due < today && due >= addDays(today, -OVERDUE_WINDOW_DAYS)) return 'task.overdue';
  return null;
}

/** The tasks whose due date is near enough to today anywhere on Earth, with an owner, live and not finished. */
async function candidates(db: Executor, now: Date): Promise<Candidate[]> {
  const utcToday = now.toISOString().slice(0, 10);
  const rows: Candidate[] = await db('plan_tasks')
    .whereBetween('due_date', [addDays(utcToday, -OVERDUE_WINDOW_DAYS - 1), addDays(utcToday, 2)])
    .whereNull('archived_at')
    .whereNotNull('owner_uuid')
    .select('uuid', 'organization_uuid', 'board_uuid', 'number', 'title', 'due_date', 'owner_uuid', 'state_uuid');
  if (rows.length === 0) return [];
  const open = new Set<string>();
  const states = [...new Set(rows.map((r) => r.state_uuid))];
  for (let i = 0; i < states.length; i += 500) {
    const live: { uuid: string }[] = await db('plan_states').whereIn('uuid', states.slice(i, i + 500)).whereNotIn('category', ['done', 'canceled']).select('uuid');
    for (const s of live) open.add(s.uuid);
  }
  return rows.filter((r) => open.has(r.state_uuid));
}

/** Sends the due-date notices due at `now`; answers how many notices were sent. */
export async function sendDueNotices(db: Db, now: Date): Promise<number> {
  const tasks = await candidates(db, now);
  if (tasks.length === 0) return 0;
  const owners = [...new Set(tasks.map((t) => t.owner_uuid))];
  const zones = new Map<string, string>();
  for (let i = 0; i < owners.length; i += 500) {
    const people: { uuid: string; timezone: string | null; org_timezone: string | null }[] = await db('users')
      .leftJoin('organizations', 'organizations.uuid', 'users.organization_uuid')
      .whereIn('users.uuid', owners.slice(i, i + 500))
      .select('users.uuid', 'users.timezone', 'organizations.timezone as org_timezone');
    for (const p of people) zones.set(p.uuid, p.timezone || p.org_timezone || 'UTC');
  }
  let sent = 0;
  const boardKeys = new Map<string, string>();
  for (const task of tasks) {
    const zone = zones.get(task.owner_uuid) ?? 'UTC';
    const today = localDate(now, zone);
    const kind = noticeFor(task.due_date, today);
    if (!kind || now.getTime() < startOfLocalDay(today, zone).getTime() + DUE_HOUR * 3_600_000) continue;
    if (!boardKeys.has(task.board_uuid)) boardKeys.set(task.board_uuid, (await db('plan_boards').where({ uuid: task.board_uuid }).first('key'))?.key ?? '');
    const key = `${boardKeys.get(task.board_uuid)}-${task.number}`;
    const claimed = await db.transaction(async (trx) => {
      const rows = await trx('plan_due_notices')
        .insert({ task_uuid: task.uuid, due_date: task.due_date, kind, created_at: now.toISOString() })
        .onConflict(['task_uuid', 'due_date', 'kind'])
        .ignore()
        .returning('task_uuid');
      if (rows.length === 0) return false;
      await notify(
        trx,
        {
          kind,
          organizationUuid: task.organization_uuid,
          recipients: [task.owner_uuid],
          subject: { type: 'task', uuid: task.uuid, board: task.board_uuid, project: null, title: task.title, key },
          actor: null,
          text: NOTICE_TEXT[kind](key, task.due_date),
          data: { due_date: task.due_date },
        },
        now,
      );
      return true;
    });
    if (claimed) sent++;
  }
  return sent;
}
