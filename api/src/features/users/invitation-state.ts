import type { Executor } from '../../db/connection.ts';
import { bool } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import type { InvitationRow, UserRow } from '../../db/tables.ts';

/**
 * An invited person is a user row that is not active yet, with an invitation nobody accepted. The user shape
 * tells the three states apart (`status`: active, invited, deactivated) and shows the pending invitation, so a
 * client never has to guess from `is_active` alone. The invitations feature writes invitations; this is what the
 * people's answers read of them.
 */
export type UserStatus = 'active' | 'invited' | 'deactivated';
export const USER_STATUSES: readonly UserStatus[] = ['active', 'invited', 'deactivated'];

/** How long an invitation's link works, from the e-mail that carries it (a resend starts it again). */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** When the link stops working (a row written by a server older than migration 0910: 7 days from its last e-mail). */
export const invitationExpiry = (row: Pick<InvitationRow, 'expires_at' | 'last_sent_at'>): string =>
  row.expires_at ?? new Date(Date.parse(row.last_sent_at) + INVITATION_LIFETIME_MS).toISOString();

export const isInvitationExpired = (row: Pick<InvitationRow, 'expires_at' | 'last_sent_at'>, now: Date): boolean =>
  invitationExpiry(row) <= now.toISOString();

/** The pending (not accepted) invitations of the inactive users among `users`, by user uuid: one query, or none. */
export async function pendingInvitationsOf(db: Executor, users: Pick<UserRow, 'uuid' | 'is_active'>[]): Promise<Map<string, InvitationRow>> {
  const inactive = users.filter((u) => !bool(u.is_active)).map((u) => u.uuid);
  const found = new Map<string, InvitationRow>();
  for (let i = 0; i < inactive.length; i += 100) {
    const rows: InvitationRow[] = await db('invitations').whereIn('user_uuid', inactive.slice(i, i + 100)).whereNull('accepted_at');
    for (const row of rows) found.set(row.user_uuid, row);
  }
  return found;
}

export const statusOf = (user: Pick<UserRow, 'is_active'>, invitation: InvitationRow | null | undefined): UserStatus =>
  bool(user.is_active) ? 'active' : invitation && !invitation.accepted_at ? 'invited' : 'deactivated';

/** The user shape's `invitation`: the pending invitation of an invited person, null for everyone else. */
export function presentInvitationState(user: Pick<UserRow, 'is_active'>, invitation: InvitationRow | null | undefined, now: Date) {
  if (statusOf(user, invitation) !== 'invited' || !invitation) return null;
  return {
    uuid: invitation.uuid,
    status: isInvitationExpired(invitation, now) ? ('expired' as const) : ('pending' as const),
    sent_at: iso(invitation.last_sent_at),
    expires_at: iso(invitationExpiry(invitation)),
    sent_count: invitation.sent_count,
    invited_by_uuid: invitation.invited_by_uuid,
  };
}
