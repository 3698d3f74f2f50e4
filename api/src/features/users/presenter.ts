import { bool } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { fullName } from './repository.ts';
import { presentInvitationState, statusOf } from './invitation-state.ts';
import type { InvitationRow, UserRow } from '../../db/tables.ts';

export interface UserPresentation {
  /** Show the e-mail address: the caller may see it and asked (include_email=true). */
  email: boolean;
  /** The user's pending invitation, if any (`pendingInvitationsOf`): it tells an invited person from a deactivated one. */
  invitation: InvitationRow | null | undefined;
  now: Date;
  timeOff?: { start: string; end: string }[];
}

/**
 * CONTRACT §3 user, plus `status` (active, invited or deactivated: `is_active` alone cannot tell an invited person
 * from a deactivated one) and `invitation` (the pending invitation of an invited person, else null).
 */
export function presentUser(row: UserRow, options: UserPresentation) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    ...(options.email ? { email: row.email } : {}),
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: fullName(row),
    role: row.role,
    is_active: bool(row.is_active),
    status: statusOf(row, options.invitation),
    invitation: presentInvitationState(row, options.invitation, options.now),
    timezone: row.timezone ?? null,
    occupation: row.occupation ?? null,
    image: row.image ?? null,
    created_at: iso(row.created_at),
    // One user's answer (GET and PATCH /v1/users/{uuid}/) carries their time off; lists do not.
    ...(options.timeOff ? { time_off: options.timeOff } : {}),
  };
}

/** The short reference other resources embed. */
export const userRef = (row: Pick<UserRow, 'uuid' | 'first_name' | 'last_name' | 'email'>) => ({ uuid: row.uuid, full_name: fullName(row) });
