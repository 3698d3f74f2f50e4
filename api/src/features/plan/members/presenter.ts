import { iso } from '../../../lib/time.ts';
import { personRef } from '../frame/presenters.ts';
import type { PersonColumns } from '../frame/presenters.ts';

export interface MemberView extends PersonColumns {
  membership_uuid: string;
  role: string;
  membership_created_at: string;
}

/** A board or project member: the person and their role there. */
export function presentMember(row: MemberView) {
  return { uuid: row.membership_uuid, id: row.membership_uuid, user: personRef(row), role: row.role, created_at: iso(row.membership_created_at) };
}

/** Someone who can own or take part in the container's tasks. */
export const presentMentionable = (row: PersonColumns) => personRef(row);
