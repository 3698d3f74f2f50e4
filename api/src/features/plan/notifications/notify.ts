import type { Executor } from '../../../db/connection.ts';
import type { NotificationRouteRow, NotificationRow } from '../../../db/tables.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { bool, readJson, writeJson } from '../../../lib/json.ts';
import { enqueueEmail } from '../../../outbox/deliveries.ts';
import { platformName, sendsDirectMessages } from '../../chat-platform/connection.ts';
import { enqueueChatPost } from '../../chat-platform/enqueue.ts';
import type { Platform } from '../../../db/tables.ts';
import { notificationKind } from './catalog.ts';
import { choiceOf, prefsOf } from './prefs.ts';
import { EMAIL_CHANNEL } from './routing.ts';
import type { RouteScope } from './routing.ts';

/** What a notification is about: the object, where it lives, and how people recognise it. */
export interface NoticeSubject {
  type: 'task' | 'comment' | 'project' | 'board' | 'report';
  uuid: string;
  /** The board it is on (tasks, comments), or null. */
  board: string | null;
  /** The project it belongs to (a project, its update, or the board's project), or null. */
  project: string | null;
  /** The task's title, the project's name, … */
  title: string;
  /** A task's KEY-n. */
  key?: string | null;
}

export interface Notice {
  /** A catalogue key (catalog.ts), e.g. `task.assigned`. */
  kind: string;
  organizationUuid: string;
  /** Who it is for (user uuids). The actor, people who cannot see the object, guests and deactivated people are left out. */
  recipients: string[];
  subject: NoticeSubject;
  /** The person whose action caused it (null for the scheduler's own notices), and the agent acting for them. */
  actor: { uuid: string } | null;
  agentName?: string | null;
  /** One line saying what happened ("Mia assigned PLAT-12 Fix login to you"). */
  text: string;
  /** Anything a client may want beside it (the state moved to, the comment's uuid). */
  data?: Record<string, unknown>;
}

export interface Notified {
  /** Inbox rows written (one per recipient kept). */
  inbox: string[];
  /** Outbox rows written for the organization's routes (chat posts and e-mails). */
  deliveries: number;
}

interface Person {
  uuid: string;
  email: string;
  first_name: string;
  last_name: string;
}

interface Place {
  visibility: 'org' | 'members';
  board: string | null;
  project: string | null;
}

/** Where the subject lives and who may see it there (a board's visibility, else its project's, else everyone's). */
async function placeOf(db: Executor, subject: NoticeSubject): Promise<Place> {
  if (subject.board) {
    const board = await db('plan_boards').where({ uuid: subject.board }).first('visibility', 'project_uuid');
    return { visibility: board?.visibility ?? 'members', board: subject.board, project: subject.project ?? board?.project_uuid ?? null };
  }
  if (subject.project) {
    const project = await db('plan_projects').where({ uuid: subject.project }).first('visibility');
    return { visibility: project?.visibility ?? 'members', board: null, project: subject.project };
  }
  return { visibility: 'org', board: null, project: null };
}

/** The recipients who may read about the subject: active, not guests, not the actor, and seeing its board or project. */
async function keptRecipients(db: Executor, notice: Notice, place: Place): Promise<Person[]> {
  const wanted = [...new Set(notice.recipients)].filter((uuid) => uuid !== notice.actor?.uuid);
  if (wanted.length === 0) return [];
  const people: (Person & { role: string; is_active: boolean | number })[] = await db('users')
    .whereIn('uuid', wanted)
    .where({ organization_uuid: notice.organizationUuid })
    .select('uuid', 'email', 'first_name', 'last_name', 'role', 'is_active');
  const active = people.filter((p) => (p.is_active === true || p.is_active === 1) && p.role !== 'guest');
  if (place.visibility === 'org') return active;
  const [table, column, uuid] = place.board ? ['plan_board_members', 'board_uuid', place.board] : ['plan_project_members', 'project_uuid', place.project];
  const members = new Set(
    (await db(table).where({ [column]: uuid }).whereIn('user_uuid', active.map((p) => p.uuid)).select('user_uuid')).map((m: { user_uuid: string }) => m.user_uuid),
  );
  return active.filter((p) => p.role === 'admin' || members.has(p.uuid));
}

/** Whether a route's scope covers the place (no scope: every board and project). */
function covers(scope: RouteScope | null, place: Place): boolean {
  if (!scope) return true;
  return (place.board !== null && (scope.boards ?? []).includes(place.board)) || (place.project !== null && (scope.projects ?? []).includes(place.project));
}

/**
 * Notifies people of something that happened, inside the transaction of the change that caused it (so a
 * notification exists exactly when its cause does): one inbox row per recipient who may see the subject and did
 * not turn the kind off, an e-mail to each of them who wants it by e-mail (they said so, or the organization routes
 * the kind to `email`), a chat message to each who wants it by chat (in their direct messages, or in the public
 * channel they chose when the subject is one everyone sees: prefs.ts), and the organization's routes for the kind:
 * a post to each routed chat channel (once per channel, and only about boards and projects everyone in the
 * organization sees). The delivery worker sends them after the commit.
 *
 * Features call it from their services (`await notify(w.db, {...}, w.now)`); the due-date job calls it itself.
 */
export async function notify(db: Executor, notice: Notice, now: Date): Promise<Notified> {
  const kind = notificationKind(notice.kind);
  if (!kind) throw new Error(`notify: ${notice.kind} is not in the notification catalogue`);
  const place = await placeOf(db, notice.subject);
  const kept = await keptRecipients(db, notice, place);
  const prefs = await prefsOf(db, kept.map((p) => p.uuid));
  const people = kept.filter((p) => !prefs.get(p.uuid)!.disabled.includes(notice.kind));
  const title = notice.subject.key ? `${notice.subject.key} ${notice.subject.title}` : notice.subject.title;

  const inbox: string[] = [];
  if (kind.channels.includes('inbox') && people.length) {
    const rows: NotificationRow[] = people.map((person) => ({
      uuid: uuidv7(now.getTime()),
      organization_uuid: notice.organizationUuid,
      recipient_uuid: person.uuid,
      kind: notice.kind,
      object_type: notice.subject.type,
      object_uuid: notice.subject.uuid,
      board_uuid: place.board,
      project_uuid: place.project,
      actor_uuid: notice.actor?.uuid ?? null,
      agent_name: notice.agentName ?? null,
      title,
      body: notice.text,
      data: writeJson({ ...(notice.data ?? {}), ...(notice.subject.key ? { key: notice.subject.key } : {}) }),
      read_at: null,
      created_at: now.toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 40) await db('plan_notifications').insert(rows.slice(i, i + 40));
    inbox.push(...rows.map((row) => row.uuid));
  }

  const routes: NotificationRouteRow[] = await db('plan_notification_routes').where({ organization_uuid: notice.organizationUuid, kind: notice.kind });
  const matching = routes.filter((route) => bool(route.enabled ?? true) && covers(readJson<RouteScope | null>(route.scope, null), place));
  const chatText = `*${kind.name}* · ${title}\n${notice.text}${notice.agentName ? ` (via ${notice.agentName})` : ''}`;
  const post = async (platform: Platform, channels: string[], users: Person[]) =>
    enqueueChatPost(db, { organizationUuid: notice.organizationUuid, platform, text: chatText, channels, users, kind: `plan.${notice.kind}`, subjectUuid: notice.subject.uuid }, now);
  let deliveries = 0;
  const channels = [...new Set(matching.filter((r) => r.channel !== EMAIL_CHANNEL).map((r) => r.channel))];
  const chatters = kind.channels.includes('chat') ? people.filter((p) => choiceOf(prefs.get(p.uuid)!.chat, notice.kind) === true) : [];
  const platform = (channels.length && place.visibility === 'org') || chatters.length ? await platformName(db, notice.organizationUuid) : null;
  if (platform && channels.length && kind.channels.includes('chat') && place.visibility === 'org') deliveries += await post(platform, channels, []);
  if (platform && chatters.length) {
    // Each person's chosen public channel, for what everyone sees; their direct messages otherwise.
    const inChannel = new Map<string, Person[]>();
    const direct: Person[] = [];
    for (const person of chatters) {
      const destination = prefs.get(person.uuid)!.destination;
      if (destination.type === 'channel' && place.visibility === 'org') inChannel.set(destination.channel.external_id, [...(inChannel.get(destination.channel.external_id) ?? []), person]);
      else direct.push(person);
    }
    // A platform without direct messages (an incoming webhook) names the people in its one channel, so only about
    // what everyone sees.
    const directMessages = await sendsDirectMessages(db, notice.organizationUuid, platform);
    if (direct.length && (directMessages || place.visibility === 'org')) deliveries += await post(platform, [], direct);
    for (const [channel, listeners] of inChannel) deliveries += await post(platform, [channel], directMessages ? [] : listeners);
  }
  if (kind.channels.includes('email')) {
    const routed = matching.some((r) => r.channel === EMAIL_CHANNEL);
    for (const person of people.filter((p) => choiceOf(prefs.get(p.uuid)!.email, notice.kind) ?? routed)) {
      const text = `${notice.text}\n\n${kind.name}: ${title}${notice.agentName ? `\nBy the agent ${notice.agentName}` : ''}\n`;
      await enqueueEmail(db, { organizationUuid: notice.organizationUuid, kind: `plan.${notice.kind}`, message: { to: [person.email], subject: `[Rollcall] ${kind.name}: ${title}`, text } }, now);
      deliveries++;
    }
  }
  return { inbox, deliveries };
}
