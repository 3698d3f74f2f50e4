import { iso } from '../../../lib/time.ts';
import { personRef } from '../frame/presenters.ts';
import type { PersonColumns } from '../frame/presenters.ts';

export interface MemberView extends PersonColumns {
  membership_uuid: string;
  role: string;
  membership_created_at: string;
}

/**
 * A board or project member: the person and their role there. The grant row's fields as the DailyBot client reads
 * them come beside it: `subject_type` (always `user`: Rollcall grants people, not teams), `user_uuid`, `name`,
 * and `team_uuid`/`team_name` (null).
 */
export function presentMember(row: MemberView) {
  const user = personRef(row);
  return {
    uuid: row.membership_uuid, id: row.membership_uuid, user, role: row.role, created_at: iso(row.membership_created_at),
    subject_type: 'user', user_uuid: user.uuid, name: user.name, team_uuid: null, team_name: null,
  };
}

/** Someone who can own or take part in the container's tasks (`kind`: always `user`, what the DailyBot client reads). */
export const presentMentionable = (row: PersonColumns) => ({ ...personRef(row), kind: 'user' as const });
