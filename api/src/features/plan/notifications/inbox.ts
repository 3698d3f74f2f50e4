import type { NotificationRow } from '../../../db/tables.ts';
import { notFound } from '../../../lib/errors.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { pageOf } from '../frame/lists.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';

/** Each person's Plan inbox: their notifications, newest first, read or unread. Personal: not in the change log. */
export interface InboxFilters {
  unread?: boolean;
  kind?: string;
  /** true: only the notifications that mention you (task.mentioned); false: all but those. */
  mentioned?: boolean;
}

const MENTION_KIND = 'task.mentioned';

function filtered(query: ReturnType<typeof mine>, filters: InboxFilters) {
  if (filters.unread === true) query.whereNull('read_at');
  if (filters.unread === false) query.whereNotNull('read_at');
  if (filters.kind) query.andWhere({ kind: filters.kind });
  if (filters.mentioned === true) query.andWhere({ kind: MENTION_KIND });
  if (filters.mentioned === false) query.andWhereNot({ kind: MENTION_KIND });
  return query;
}

export interface InboxItem {
  row: NotificationRow;
  actor: PersonColumns | null;
}

const mine = (r: PlanRead) => r.db('plan_notifications').where({ recipient_uuid: r.actor.user.uuid });

export async function listInbox(r: PlanRead, filters: InboxFilters, page: PageRequest): Promise<{ count: number; items: InboxItem[] }> {
  const { count, rows } = await pageOf<NotificationRow>(
    () => filtered(mine(r), filters),
    page,
    (query) => query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'uuid', order: 'desc' }]),
  );
  const actors = [...new Set(rows.map((row) => row.actor_uuid).filter((u): u is string => u !== null))];
  const people: PersonColumns[] = actors.length ? await r.db('users').whereIn('uuid', actors).select('uuid', 'first_name', 'last_name', 'email') : [];
  const byUuid = new Map(people.map((p) => [p.uuid, p]));
  return { count, items: rows.map((row) => ({ row, actor: row.actor_uuid ? (byUuid.get(row.actor_uuid) ?? null) : null })) };
}

/** How many unread notifications you have among those the filters keep (the DailyBot client's unread-count). */
export async function unreadCount(r: PlanRead, filters: InboxFilters): Promise<{ count: number }> {
  const [{ count }] = await filtered(mine(r), { ...filters, unread: true }).count({ count: '*' });
  return { count: Number(count) };
}

export async function inboxSummary(r: PlanRead): Promise<{ unread: number; total: number }> {
  const [{ total }] = await mine(r).count({ total: '*' });
  const [{ unread }] = await mine(r).whereNull('read_at').count({ unread: '*' });
  return { unread: Number(unread), total: Number(total) };
}

/** Marks one notification read or unread. */
export async function markNotification(w: PlanWrite, uuid: string, read: boolean): Promise<InboxItem> {
  const row: NotificationRow | undefined = await w.db('plan_notifications').where({ uuid }).first();
  if (!row || row.recipient_uuid !== w.actor.user.uuid) throw notFound();
  const readAt = read ? (row.read_at ?? w.now.toISOString()) : null;
  if (readAt !== row.read_at) await w.db('plan_notifications').where({ uuid }).update({ read_at: readAt });
  const actor: PersonColumns | undefined = row.actor_uuid ? await w.db('users').where({ uuid: row.actor_uuid }).first('uuid', 'first_name', 'last_name', 'email') : undefined;
  return { row: { ...row, read_at: readAt }, actor: actor ?? null };
}

/** Marks every unread notification read (those of one kind with `kind`); answers how many. */
export async function markAllRead(w: PlanWrite, kind: string | undefined): Promise<number> {
  const query = w.db('plan_notifications').where({ recipient_uuid: w.actor.user.uuid }).whereNull('read_at');
  if (kind) query.andWhere({ kind });
  return query.update({ read_at: w.now.toISOString() });
}
