import type { Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { AssistantSessionRow, AssistantTurnRow, TurnRole } from '../../db/tables.ts';
import { sortByThenUuid } from '../checkins/repository.ts';

/** How many earlier turns a question is answered with. */
export const EARLIER_TURNS = 20;

/**
 * The caller's session `sessionId`, or a new one: when none is named, when `reset` asks for a new thread, or when
 * the id names no session of this person (another person's session is as unknown as a missing one).
 */
export async function openSession(db: Executor, actor: Actor, sessionId: string | undefined, reset: boolean, now: Date): Promise<{ session: AssistantSessionRow; created: boolean }> {
  if (sessionId && !reset) {
    const found = await db('assistant_sessions').where({ uuid: sessionId.toLowerCase(), user_uuid: actor.user.uuid, organization_uuid: actor.organization.uuid }).first();
    if (found) return { session: found, created: false };
  }
  const stamp = now.toISOString();
  const session: AssistantSessionRow = { uuid: uuidv7(now.getTime()), organization_uuid: actor.organization.uuid, user_uuid: actor.user.uuid, created_at: stamp, updated_at: stamp };
  await db('assistant_sessions').insert(session);
  return { session, created: true };
}

/** The session's last EARLIER_TURNS turns, oldest first. */
export async function earlierTurns(db: Executor, sessionUuid: string): Promise<AssistantTurnRow[]> {
  const rows: AssistantTurnRow[] = await db('assistant_turns').where({ session_uuid: sessionUuid });
  return sortByThenUuid(rows, (row) => row.created_at).slice(-EARLIER_TURNS);
}

export async function appendTurns(db: Executor, sessionUuid: string, turns: { role: TurnRole; content: string; classification: string | null }[], now: Date): Promise<void> {
  const stamp = now.toISOString();
  await db('assistant_turns').insert(turns.map((turn) => ({ uuid: uuidv7(now.getTime()), session_uuid: sessionUuid, ...turn, created_at: stamp })));
  await db('assistant_sessions').where({ uuid: sessionUuid }).update({ updated_at: stamp });
}

/** Sessions nobody has written to for 30 days go (the daily job); their turns go with them. */
export async function pruneSessions(db: Executor, now: Date): Promise<number> {
  return db('assistant_sessions').where('updated_at', '<', new Date(now.getTime() - 30 * 24 * 3600 * 1000).toISOString()).delete();
}
