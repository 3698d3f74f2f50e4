import type { Executor } from '../../../db/connection.ts';
import type { BoardRow, PersonSettingsRow } from '../../../db/tables.ts';
import { parseDateTime } from '../../../lib/dates.ts';
import { badRequest, invalidFilter } from '../../../lib/errors.ts';
import { readJson, writeJson } from '../../../lib/json.ts';
import { enqueueEmail } from '../../../outbox/deliveries.ts';
import { visibleBoard, whereVisible } from '../frame/access.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { listChannels } from '../channels/service.ts';
import type { ChatAccess } from '../channels/service.ts';
import { NOTIFICATION_CATALOG, notificationKind } from '../notifications/catalog.ts';
import { choiceOf, readPrefs } from '../notifications/prefs.ts';
import type { ChatDestination, PersonalPrefs } from '../notifications/prefs.ts';
import { EMAIL_CHANNEL } from '../notifications/routing.ts';
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

/**
 * Every personal kind of the catalogue, with whether the caller gets it at all (`enabled`), by chat and by e-mail
 * (notifications/prefs.ts says how each is decided), and where their chat notifications go.
 */
export async function getNotificationPrefs(r: PlanRead) {
  const prefs = readPrefs((await settingsOf(r.db, r.actor.user.uuid))?.notifications);
  const routedByEmail = new Set(
    (await r.db('plan_notification_routes').where({ organization_uuid: r.actor.organization.uuid, channel: EMAIL_CHANNEL, enabled: true }).select('kind')).map((row: { kind: string }) => row.kind),
  );
  const items = NOTIFICATION_CATALOG.filter((k) => k.scope === 'personal').map((k) => ({
    kind: k.key,
    name: k.name,
    default_enabled: k.default_enabled,
    enabled: !prefs.disabled.includes(k.key),
    chat: k.channels.includes('chat') && choiceOf(prefs.chat, k.key) === true,
    email: k.channels.includes('email') && (choiceOf(prefs.email, k.key) ?? routedByEmail.has(k.key)),
  }));
  return { items, destination: prefs.destination, paused_until: null };
}

/** Where a person's chat notifications may go, checked on the platform (the route's prepare: before the transaction). */
export async function chatDestination(r: PlanRead, chat: ChatAccess, input: NotificationPrefsInput['destination']): Promise<ChatDestination | undefined> {
  if (!input) return undefined;
  if (input.type === 'dm') return { type: 'dm' };
  const wanted = input.channel?.external_id ?? input.channel?.id;
  if (!wanted) throw invalidFilter('destination', 'A channel destination names its channel: {"type": "channel", "channel": {"external_id": "C123"}}.');
  const found = (await listChannels(r, chat, 'channel')).find((c) => c.external_id === wanted);
  if (!found) throw badRequest('channel_not_found', `No public channel "${wanted.slice(0, 200)}" on the connected chat platform; GET /v1/plan/channels/?type=channel lists them.`, { parameter: 'destination' });
  return { type: 'channel', channel: { external_id: found.external_id, name: found.name } };
}

/**
 * Changes the caller's preferences: kinds on or off, by chat or e-mail (unknown kinds: 400
 * unknown_notification_kind; a channel a kind never goes by: invalid_filter_value), and where chat goes
 * (`destination`, checked by chatDestination). `paused_until` takes null only.
 */
export async function saveNotificationPrefs(w: PlanWrite, input: NotificationPrefsInput, destination: ChatDestination | undefined) {
  if (input.paused_until !== undefined && input.paused_until !== null) throw invalidFilter('paused_until', 'Pausing notifications is not supported: send null or leave it out.');
  const prefs = readPrefs((await settingsOf(w.db, w.actor.user.uuid))?.notifications);
  const disabled = new Set(prefs.disabled);
  const byChannel = { chat: { ...prefs.chat }, email: { ...prefs.email } };
  for (const [index, item] of (input.items ?? []).entries()) {
    const kind = notificationKind(item.kind);
    if (!kind) throw badRequest('unknown_notification_kind', `No notification kind "${item.kind.slice(0, 64)}"; GET /v1/plan/notifications/catalog/ lists them.`, { parameter: 'items' });
    if (item.enabled === true) disabled.delete(kind.key);
    if (item.enabled === false) disabled.add(kind.key);
    for (const channel of ['chat', 'email'] as const) {
      const wanted = item[channel];
      if (wanted === undefined) continue;
      if (!kind.channels.includes(channel)) throw invalidFilter(`items.${index}.${channel}`, `${kind.key} never goes by ${channel === 'chat' ? 'chat' : 'e-mail'}.`);
      byChannel[channel][kind.key] = wanted;
    }
  }
  const saved: PersonalPrefs = { disabled: [...disabled].sort(), ...byChannel, destination: destination ?? prefs.destination };
  await saveSettings(w, { notifications: writeJson(saved) });
  return getNotificationPrefs(w);
}
