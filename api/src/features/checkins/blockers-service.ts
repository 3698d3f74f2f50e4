import type { Knex } from 'knex';
import type { Executor } from '../../db/connection.ts';
import { forbidden, invalidFilter, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { bool } from '../../lib/json.ts';
import { localDate } from '../../lib/dates.ts';
import type { Actor } from '../../auth/credentials.ts';
import { can } from '../../auth/policy.ts';
import { getVisibleCheckin } from './repository.ts';
import { readableCheckin, readsEveryone } from './responses-service.ts';
import { resolveBlockerRow } from './blockers.ts';
import type { BlockerRow, CheckinRow } from '../../db/tables.ts';

/** A blocker with its person's and resolver's names (never shown for anonymous check-ins). */
export interface BlockerView extends BlockerRow {
  first_name: string;
  last_name: string;
  email: string;
  resolver_first_name: string | null;
  resolver_last_name: string | null;
  resolver_email: string | null;
}

export interface BlockerFilters {
  state?: 'open' | 'resolved';
  user?: string;
}

const withNames = (db: Executor) =>
  db('checkin_blockers as b')
    .join('users as u', 'u.uuid', 'b.user_uuid')
    .leftJoin('users as r', 'r.uuid', 'b.resolved_by_uuid')
    .select('b.*', 'u.first_name', 'u.last_name', 'u.email', 'r.first_name as resolver_first_name', 'r.last_name as resolver_last_name', 'r.email as resolver_email');

/**
 * GET …/blockers/: whose blockers the caller reads is whose responses they read (`responsesReadBy`): everyone's
 * for admins, managers and (unless the check-in is private) participants, else their own. Open ones longest open
 * first, then resolved ones most recently opened first.
 */
export async function listBlockers(db: Executor, actor: Actor, checkinUuid: string, filters: BlockerFilters, page: PageRequest, now: Date) {
  const { checkin, participant } = await readableCheckin(db, actor, checkinUuid);
  if (bool(checkin.is_anonymous) && filters.user && filters.user !== actor.user.uuid) {
    throw invalidFilter('user', 'This check-in is anonymous: blockers cannot be filtered by person.');
  }
  const readsAll = readsEveryone(actor, checkin, participant);
  if (!readsAll && filters.user && filters.user !== actor.user.uuid) return { checkin, count: 0, rows: [] as BlockerView[], today: localDate(now, checkin.timezone) };
  const userUuid = readsAll ? filters.user : actor.user.uuid;
  const narrowed = (q: Knex.QueryBuilder) => {
    q.where('b.checkin_uuid', checkinUuid);
    if (userUuid) q.andWhere('b.user_uuid', userUuid);
    if (filters.state === 'open') q.whereNull('b.resolved_at');
    if (filters.state === 'resolved') q.whereNotNull('b.resolved_at');
  };
  const [{ count }] = await db('checkin_blockers as b').modify(narrowed).count({ count: '*' });
  const rows: BlockerView[] = await withNames(db)
    .modify(narrowed)
    // Open ones first, longest open first; then resolved ones, newest first.
    .orderByRaw('case when b.resolved_at is null then 0 else 1 end')
    .orderByRaw('case when b.resolved_at is null then b.opened_at end asc')
    .orderBy('b.opened_at', 'desc')
    .orderBy('b.uuid', 'desc')
    .limit(page.limit)
    .offset(page.offset);
  return { checkin, count: Number(count), rows, today: localDate(now, checkin.timezone) };
}

/**
 * POST …/blockers/{b}/resolve/: the blocker's person, or an admin or manager. A blocker the caller cannot read is
 * 404; one already resolved answers as it is (resolving twice changes nothing).
 */
export async function resolveBlocker(db: Executor, actor: Actor, checkinUuid: string, blockerUuid: string, now: Date): Promise<{ checkin: CheckinRow; row: BlockerView }> {
  return db.transaction(async (trx) => {
    const { checkin, participant } = await readableCheckin(trx, actor, checkinUuid);
    const row: BlockerRow | undefined = await trx('checkin_blockers').where({ uuid: blockerUuid, checkin_uuid: checkinUuid }).first();
    const own = row?.user_uuid === actor.user.uuid;
    if (!row || (!own && !readsEveryone(actor, checkin, participant))) throw notFound();
    if (!own && !can(actor, 'checkins.manage')) {
      // A participant who reads the team's blockers may not resolve another person's.
      await getVisibleCheckin(trx, actor, checkinUuid);
      throw forbidden('not_your_blocker', 'Only the person blocked, an admin or a manager resolves a blocker.');
    }
    if (!row.resolved_at) {
      const person = await trx('users').where({ uuid: row.user_uuid }).first('uuid', 'first_name', 'last_name', 'email');
      await resolveBlockerRow(trx, checkin, row, actor.user.uuid, person ?? null, now);
    }
    const view: BlockerView = await withNames(trx).where('b.uuid', blockerUuid).first();
    return { checkin, row: view };
  });
}
