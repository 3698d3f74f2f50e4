import type { Executor } from '../../../db/connection.ts';
import type { BoardRow, PersonSettingsRow } from '../../../db/tables.ts';
import { parseDateTime } from '../../../lib/dates.ts';
import { badRequest, invalidFilter } from '../../../lib/errors.ts';
import { readJson, writeJson } from '../../../lib/json.ts';
import { enqueueEmail } from '../../../outbox/deliveries.ts';
import { visibleBoard, whereVisible } from '../frame/access.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { NOTIFICATION_CATALOG } from '../notifications/catalog.ts';
import type { BriefingInput, NotificationPrefsInput } from './schema.ts';

/**
 * The person's own Plan doors (the DailyBot client's `me/…`): how far they read the activity feed, the boards they
 * visited last, their task counts, their daily briefing and which notification kinds they want. Each is theirs
 * alone: agent and organization keys are refused by the routes (person-only).
 */

const RECENTS = 10;

async function settingsOf(db: Executor, user: string): Promise<PersonSettingsRow | undefined> {
  return db('plan_person_settings').where({ user_uuid: user }).first();
}

async function saveSettings(w: PlanWrite, changes: Partial<PersonSettingsRow>): Promise<void> {
  const row = { user_uuid: w.actor.user.uuid, organization_uuid: w.actor.organization.uuid, updated_at: w.now.toISOString(), ...changes };
  await w.db('plan_person_settings').insert(row).onConflict('user_uuid').merge({ ...changes, updated_at: row.updated_at });
}

// --- The activity cursor ---

export async function getActivityCursor(r: PlanRead): Promise<{ last_seen_at: string | null }> {
  return { last_seen_at: (await settingsOf(r.db, r.actor.user.uuid))?.activity_seen_at ?? null };
}

/** "I have read up to here": any moment up to now (a later one is refused, it would hide what has not happened yet). */
export async function setActivityCursor(w: PlanWrite, lastSeenAt: string | null): Promise<{ last_seen_at: string | null }> {
  const moment = lastSeenAt === null ? null : parseDateTime(lastSeenAt);
  if (lastSeenAt !== null && !moment) throw invalidFilter('last_seen_at', 'last_seen_at must be a date-time such as 2026-03-10T14:00:00Z.');
  if (moment && moment.getTime() > w.now.getTime()) throw invalidFilter('last_seen_at', 'last_seen_at is in the future.');
  const value = moment ? moment.toISOString() : null;
  await saveSettings(w, { activity_seen_at: value });
  return { last_seen_at: value };
}

// --- Recents ---

/** Records that the caller opened a board (a board they do not see is 404). */
export async function visitBoard(w: PlanWrite, boardUuid: string): Promise<{ board: string; visited_at: string }> {
  await visibleBoard(w.db, w.actor, boardUuid);
  const row = { user_uuid: w.actor.user.uuid, board_uuid: boardUuid, organization_uuid: w.actor.organization.uuid, visited_at: w.now.toISOString() };
  await w.db('plan_board_visits').insert(row).onConflict(['user_uuid', 'board_uuid']).merge({ visited_at: row.visited_at });
  return { board: boardUuid, visited_at: row.visited_at };
}

/** The boards the caller visited most recently (at most 10), those they still see and not archived, newest first. */
export async function recentBoards(r: PlanRead): Promise<{ board: BoardRow; visited_at: string }[]> {
  const rows: (BoardRow & { visited_at: string })[] = await whereVisible(r.db('plan_boards as b'), r.db, r.actor, 'board', 'b')
    .join('plan_board_visits as v', 'v.board_uuid', 'b.uuid')
    .where('v.user_uuid', r.actor.user.uuid)
    .whereNull('b.archived_at')
    .orderBy([{ column: 'v.visited_at', order: 'desc' }, { column: 'b.uuid', order: 'desc' }])
    .limit(RECENTS)
    .select('b.*', 'v.visited_at');
  return rows.map(({ visited_at, ...board }) => ({ board: board as BoardRow, visited_at }));
}

// --- Task counts (and the briefing's lists) ---

export interface OpenTask {
  uuid: string;
  key: string;
  title: string;
  due_date: string | null;
  category: string;
  state: string;
}

/** The caller's day in their time zone (theirs, else the organization's): YYYY-MM-DD. */
function today(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function openTasksOf(r: PlanRead): Promise<OpenTask[]> {
  const rows: (Omit<OpenTask, 'key'> & { board_key: string; number: number })[] = await whereVisible(r.db('plan_tasks as t'), r.db, r.actor, 'board', 'b')
    .join('plan_boards as b', 'b.uuid', 't.board_uuid')
    .join('plan_states as s', 's.uuid', 't.state_uuid')
    .where('t.owner_uuid', r.actor.user.uuid)
    .whereNull('t.archived_at')
    .whereNull('b.archived_at')
    .whereNotIn('s.category', ['done', 'canceled'])
    .orderByRaw('case when t.due_date is null then 1 else 0 end')
    .orderBy([{ column: 't.due_date' }, { column: 't.uuid' }])
    .select('t.uuid', 'b.key as board_key', 't.number', 't.title', 't.due_date', 's.category', 's.name as state');
  return rows.map(({ board_key, number, ...task }) => ({ ...task, key: `${board_key}-${number}` }));
}

/**
 * The caller's open tasks (owned by them, live, not in a done or canceled column), counted in buckets: `open` all
 * of them; by due date, in their time zone, `overdue` (before today), `due_today`, `due_this_week` (the next 7
 * days after today) and `no_due_date`; and `in_progress` (in an in-progress column). A task counts in `open` and
 * in one due-date bucket (or none, when due later), and in `in_progress` besides.
 */
export function bucketsOf(tasks: OpenTask[], day: string) {
  const week = addDays(day, 7);
  const due = (t: OpenTask) => t.due_date?.slice(0, 10) ?? null;
  return {
    overdue: tasks.filter((t) => due(t) !== null && due(t)! < day),
    due_today: tasks.filter((t) => due(t) === day),
    due_this_week: tasks.filter((t) => due(t) !== null && due(t)! > day && due(t)! <= week),
    no_due_date: tasks.filter((t) => due(t) === null),
    in_progress: tasks.filter((t) => t.category === 'in_progress'),
  };
}

async function timeZoneOf(r: PlanRead): Promise<string> {
  return r.actor.user.timezone ?? r.actor.organization.timezone ?? 'UTC';
}

export async function taskCounts(r: PlanRead) {
  const day = today(r.now, await timeZoneOf(r));
  const tasks = await openTasksOf(r);
  const buckets = bucketsOf(tasks, day);
  return { date: day, open: tasks.length, ...Object.fromEntries(Object.entries(buckets).map(([name, list]) => [name, list.length])) };
}

// --- The daily briefing ---

export interface Briefing {
  enabled: boolean;
  time: string;
  timezone: string;
  weekdays: number[];
}

const BRIEFING_DEFAULTS = { enabled: false, time: '08:30', weekdays: [1, 2, 3, 4, 5] };

/** The stored briefing, or the defaults (`is_default: true`: nothing was saved yet; the time zone is the person's). */
export async function getBriefing(r: PlanRead): Promise<Briefing & { is_default: boolean }> {
  const stored = readJson<Briefing | null>((await settingsOf(r.db, r.actor.user.uuid))?.briefing, null);
  if (stored) return { ...stored, is_default: false };
  return { ...BRIEFING_DEFAULTS, timezone: await timeZoneOf(r), is_default: true };
}

/** Changes what is sent (the first save without a time zone keeps the person's own). */
export async function saveBriefing(w: PlanWrite, input: BriefingInput): Promise<Briefing & { is_default: boolean }> {
  const { is_default: _default, ...current } = await getBriefing(w);
  const next: Briefing = {
    enabled: input.enabled ?? current.enabled,
    time: input.time ?? current.time,
    timezone: input.timezone ?? current.timezone,
    weekdays: input.weekdays ? [...new Set(input.weekdays)].sort() : current.weekdays,
  };
  await saveSettings(w, { briefing: writeJson(next) });
  return { ...next, is_default: false };
}

const line = (t: OpenTask) => `${t.key} ${t.title}${t.due_date ? ` (due ${t.due_date.slice(0, 10)})` : ''}`;

/**
 * The briefing as it would be sent now: the caller's open tasks that are overdue, due today, due this week and in
 * progress (each list at most 20, with its full count), and how many unread notifications they have.
 */
export async function previewBriefing(r: PlanRead) {
  const day = today(r.now, await timeZoneOf(r));
  const tasks = await openTasksOf(r);
  const buckets = bucketsOf(tasks, day);
  const [{ unread }] = await r.db('plan_notifications').where({ recipient_uuid: r.actor.user.uuid }).whereNull('read_at').count({ unread: '*' });
  const sections = Object.entries(buckets)
    .filter(([name]) => name !== 'no_due_date')
    .map(([name, list]) => ({ name, count: list.length, tasks: list.slice(0, 20).map(({ uuid, key, title, due_date, state }) => ({ uuid, key, title, due_date, state })) }));
  const title = `Your Plan for ${day}`;
  const text = [
    title,
    ...sections.filter((s) => s.count > 0).flatMap((s) => [``, `${s.name.replace(/_/g, ' ')} (${s.count}):`, ...s.tasks.map((t) => `- ${line(t as OpenTask)}`)]),
    ``,
    `Unread notifications: ${Number(unread)}`,
  ].join('\n');
  return { title, date: day, open: tasks.length, unread_notifications: Number(unread), sections, text };
}

/** Sends the briefing now to the caller's own e-mail (a dry run builds it and sends nothing). */
export async function sendBriefingTest(w: PlanWrite) {
  const briefing = await previewBriefing(w);
  const user = await w.db('users').where({ uuid: w.actor.user.uuid }).first('email');
  await enqueueEmail(w.db, { organizationUuid: w.actor.organization.uuid, kind: 'plan.briefing', message: { to: [user!.email], subject: `[Rollcall] ${briefing.title}`, text: briefing.text } }, w.now);
  return { sent_to: user!.email, briefing };
}

// --- Personal notification preferences ---

/** Every kind of the catalogue that reaches a person (inbox or e-mail), with whether the caller gets it. */
export async function getNotificationPrefs(r: PlanRead) {
  const off = new Set(readJson<{ disabled?: string[] } | null>((await settingsOf(r.db, r.actor.user.uuid))?.notifications, null)?.disabled ?? []);
  const items = NOTIFICATION_CATALOG.filter((k) => k.channels.includes('inbox') || k.channels.includes('email')).map((k) => ({
    kind: k.key, name: k.name, default_enabled: k.default_enabled, enabled: !off.has(k.key),
  }));
  return { items, paused_until: null };
}

/** Turns kinds on or off for the caller (unknown kinds: 400 unknown_notification_kind); `paused_until` takes null only. */
export async function saveNotificationPrefs(w: PlanWrite, input: NotificationPrefsInput) {
  if (input.paused_until !== undefined && input.paused_until !== null) throw invalidFilter('paused_until', 'Pausing notifications is not supported: send null or leave it out.');
  const known = new Set(NOTIFICATION_CATALOG.map((k) => k.key));
  const off = new Set(readJson<{ disabled?: string[] } | null>((await settingsOf(w.db, w.actor.user.uuid))?.notifications, null)?.disabled ?? []);
  for (const item of input.items ?? []) {
    if (!known.has(item.kind)) throw badRequest('unknown_notification_kind', `No notification kind "${item.kind.slice(0, 64)}"; GET /v1/plan/notifications/catalog/ lists them.`, { parameter: 'items' });
    if (item.enabled) off.delete(item.kind);
    else off.add(item.kind);
  }
  await saveSettings(w, { notifications: writeJson({ disabled: [...off].sort() }) });
  return getNotificationPrefs(w);
}
