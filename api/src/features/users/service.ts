import type { Executor } from '../../db/connection.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { bool } from '../../lib/json.ts';
import type { Actor } from '../../auth/credentials.ts';
import { recordEvent } from '../webhooks/events.ts';
import { likePattern } from '../../db/sql.ts';
import { can, userUpdateRefusal } from '../../auth/policy.ts';
import { endSignIns, fullName } from './repository.ts';
import { replaceTimeOff, timeOffOf } from '../../db/time-off.ts';
import type { TimeOff } from '../../db/time-off.ts';
import { pendingInvitationsOf } from './invitation-state.ts';
import type { UserStatus } from './invitation-state.ts';
import type { UpdateUserInput } from './schema.ts';
import type { InvitationRow, UserRow } from '../../db/tables.ts';

export interface UserListFilters {
  search?: string;
  role?: string;
  isActive?: boolean;
  status?: UserStatus;
  since?: string;
  until?: string;
  ordering: { column: string; order: 'asc' | 'desc' };
}

/**
 * The users a caller can see: admins and managers everyone of the organization (pending invitations too),
 * members the directory of active people plus themselves (CONTRACT §12: clients resolve names before kudos),
 * guests only themselves.
 */
export function visibleUsers(db: Executor, actor: Actor) {
  const query = db('users as u').where('u.organization_uuid', actor.organization.uuid);
  if (!can(actor, 'users.see_directory')) query.andWhere('u.uuid', actor.user.uuid);
  else if (!can(actor, 'users.see_everyone')) query.andWhere((q) => q.where('u.is_active', true).orWhere('u.uuid', actor.user.uuid));
  return query;
}

/** A user row's pending invitation: what tells `invited` from `deactivated` (features/users/invitation-state.ts). */
const pendingInvitation = (db: Executor) => db('invitations as i').where('i.user_uuid', db.ref('u.uuid')).whereNull('i.accepted_at').select(db.raw('1'));

/** The people of a page, and the pending invitations of the invited ones among them (by user uuid). */
export interface UserPage {
  count: number;
  rows: UserRow[];
  invitations: Map<string, InvitationRow>;
}

export async function listUsers(db: Executor, actor: Actor, filters: UserListFilters, page: PageRequest): Promise<UserPage> {
  const filtered = () => {
    const query = visibleUsers(db, actor);
    if (filters.search) {
      const pattern = likePattern(filters.search);
      query.andWhere((q) =>
        q
          .whereRaw("lower(u.first_name || ' ' || u.last_name) like ? escape '\\'", [pattern])
          .orWhereRaw("lower(u.email) like ? escape '\\'", [pattern]),
      );
    }
    if (filters.role) query.andWhere('u.role', filters.role);
    if (filters.isActive !== undefined) query.andWhere('u.is_active', filters.isActive);
    if (filters.status === 'active') query.andWhere('u.is_active', true);
    else if (filters.status === 'invited') query.andWhere('u.is_active', false).whereExists(pendingInvitation(db));
    else if (filters.status === 'deactivated') query.andWhere('u.is_active', false).whereNotExists(pendingInvitation(db));
    if (filters.since) query.andWhere('u.created_at', '>=', filters.since);
    if (filters.until) query.andWhere('u.created_at', '<', nextDay(filters.until));
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows = await filtered()
    .select('u.*')
    .orderBy(filters.ordering.column, filters.ordering.order)
    .orderBy('u.first_name', 'asc')
    .orderBy('u.last_name', 'asc')
    .orderBy('u.uuid', 'asc')
    .limit(page.limit)
    .offset(page.offset);
  return { count: Number(count), rows, invitations: await pendingInvitationsOf(db, rows) };
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

export async function getUser(db: Executor, actor: Actor, uuid: string): Promise<UserRow> {
  const row = await visibleUsers(db, actor).andWhere('u.uuid', uuid).first('u.*');
  if (!row) throw notFound();
  return row;
}

async function activeAdminCount(db: Executor, organizationUuid: string): Promise<number> {
  const [{ count }] = await db('users').where({ organization_uuid: organizationUuid, role: 'admin', is_active: true }).count({ count: '*' });
  return Number(count);
}

/** One person as GET and PATCH /v1/users/{uuid}/ answer: their row, time off and pending invitation. */
export interface UserDetail {
  row: UserRow;
  timeOff: TimeOff[];
  invitation: InvitationRow | null;
}

async function detailOf(db: Executor, row: UserRow): Promise<UserDetail> {
  const invitations = await pendingInvitationsOf(db, [row]);
  return { row, timeOff: await timeOffOf(db, row.uuid), invitation: invitations.get(row.uuid) ?? null };
}

/** GET /v1/users/{uuid}/: the user, their time off and pending invitation. */
export async function getUserDetail(db: Executor, actor: Actor, uuid: string): Promise<UserDetail> {
  return detailOf(db, await getUser(db, actor, uuid));
}

/**
 * Admins change anything; everyone else only their own profile fields. Deactivation keeps the user's data; their
 * keys stop at once (the credential check reads `is_active`) and work again on reactivation, while their CLI
 * tokens and web sessions are revoked for good.
 */
export async function updateUser(db: Executor, actor: Actor, uuid: string, input: UpdateUserInput, now: Date): Promise<UserDetail> {
  return db.transaction(async (trx) => {
    const row = await getUser(trx, actor, uuid);
    const touchesAdminFields = input.role !== undefined || input.is_active !== undefined;
    const refused = userUpdateRefusal(actor, row, touchesAdminFields);
    if (refused) throw refused;
    const losesAdmin = row.role === 'admin' && bool(row.is_active) && ((input.role !== undefined && input.role !== 'admin') || input.is_active === false);
    if (losesAdmin && (await activeAdminCount(trx, actor.organization.uuid)) <= 1) {
      throw badRequest('last_admin', 'An organization keeps at least one active admin.');
    }
    const changes: Record<string, unknown> = { updated_at: now.toISOString() };
    for (const field of ['first_name', 'last_name', 'timezone', 'occupation', 'image', 'role', 'is_active'] as const) {
      if (input[field] !== undefined) changes[field] = input[field];
    }
    await trx('users').where({ uuid }).update(changes);
    if (input.time_off !== undefined) await replaceTimeOff(trx, row, input.time_off, now);
    if (input.is_active !== undefined && input.is_active !== bool(row.is_active)) {
      if (!input.is_active) await endSignIns(trx, uuid, now);
      if (input.is_active) await trx('invitations').where({ user_uuid: uuid }).whereNull('accepted_at').update({ accepted_at: now.toISOString(), updated_at: now.toISOString() });
      await recordEvent(
        trx,
        {
          organizationUuid: actor.organization.uuid,
          event: input.is_active ? 'organization.user_activated' : 'organization.user_deactivated',
          payload: { user: { uuid: row.uuid, full_name: fullName(row), email: row.email }, by: { uuid: actor.user.uuid, full_name: fullName(actor.user) } },
        },
        now,
      );
    }
    const updated = await trx('users').where({ uuid }).first();
    if (!updated) throw notFound();
    return detailOf(trx, updated);
  });
}
