import { personSeesPlanContainer } from '../../../auth/policy.ts';
import type { Executor } from '../../../db/connection.ts';
import type { BoardRow, Role } from '../../../db/tables.ts';
import { bool } from '../../../lib/json.ts';

/**
 * Mentions in a comment: `<@user-uuid>` (the uuid a board's `mentionables/` lists; clients show the name). A
 * mention counts when it names an active person of the organization who may read the task's board (the board's
 * mentionables); anything else stays plain text and notifies nobody.
 */
const MENTION = /<@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/gi;
/** More mentions than this in one body are read as text (a comment is not a mailing list). */
const MAX_MENTIONS = 50;

export function mentionedIn(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION)].map((m) => m[1].toLowerCase()))].slice(0, MAX_MENTIONS);
}

/** The mentioned people who may be mentioned on the board, in the order they were mentioned. */
export async function mentionables(db: Executor, organizationUuid: string, board: BoardRow, users: string[]): Promise<string[]> {
  if (users.length === 0) return [];
  const people: { uuid: string; role: Role; is_active: boolean | number }[] = await db('users')
    .where({ organization_uuid: organizationUuid })
    .whereIn('uuid', users)
    .select('uuid', 'role', 'is_active');
  const members = board.visibility === 'org' ? new Set<string>() : new Set((await db('plan_board_members').where({ board_uuid: board.uuid }).whereIn('user_uuid', users).select('user_uuid')).map((m) => m.user_uuid));
  const kept = new Set(people.filter((p) => bool(p.is_active) && personSeesPlanContainer(p.role, board.visibility, members.has(p.uuid))).map((p) => p.uuid));
  return users.filter((uuid) => kept.has(uuid));
}
