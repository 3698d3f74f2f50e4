import { bool } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { fullName } from '../users/repository.ts';
import type { TeamView, TeamMemberView } from './service.ts';

/** CONTRACT §3: `{uuid, id, name, active, is_default, members_count}`. */
export function presentTeam(row: TeamView) {
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    active: bool(row.active),
    is_default: bool(row.is_default),
    members_count: Number(row.members_count ?? 0),
    created_at: iso(row.created_at),
  };
}

/** Items of the bare members array: `{uuid, full_name, email}`. */
export const presentMember = (row: TeamMemberView) => ({ uuid: row.uuid, full_name: fullName(row), email: row.email });
