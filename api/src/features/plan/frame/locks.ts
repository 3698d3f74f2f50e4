import type { Trx } from '../../../db/connection.ts';
import { forDelete, forWrite } from '../../../db/locks.ts';
import { lockOrganization } from '../../../outbox/plan-changes.ts';
import { managedBoard, managedProject } from './access.ts';
import type { Access } from './access.ts';
import type { PlanWrite } from './context.ts';

/**
 * The Plan's lock order (docs/architecture.md, "Transactions that lose a race, and the lock order"): a write
 * takes the locks of the change streams it will record on before it changes anything (the organization's Plan
 * row, then boards by uuid), then the tasks it changes (by uuid), then what hangs on them. The change log takes
 * those stream locks anyway when it numbers a change, so taking them first costs no concurrency; taken last,
 * after a row the write changed (or pointed at with a foreign key), they close a cycle with a write that took the
 * stream first and now waits for that row.
 */

/** The organization's stream, where projects, their members, milestones and updates, and goals log: first of all. */
export const lockOrganizationStream = (w: PlanWrite): Promise<void> => lockOrganization(w.db, w.actor.organization.uuid, w.now);

/**
 * Locks boards in the order (by uuid) for the rest of the transaction. `deleting`: the board this write deletes,
 * locked as its DELETE will (db/locks.ts `forDelete`). A board that is not there is skipped (the caller's lookup
 * under the lock then answers 404).
 */
export async function lockBoards(db: Trx, uuids: Iterable<string>, deleting?: string): Promise<void> {
  for (const uuid of [...new Set(uuids)].sort()) {
    const row = db('plan_boards').where({ uuid });
    await (uuid === deleting ? forDelete(db, row) : forWrite(db, row)).first('uuid');
  }
}

/** Locks one board's row for the rest of the transaction (its change stream, its columns' ranks, its task numbers). */
export const lockBoard = (db: Trx, uuid: string): Promise<void> => lockBoards(db, [uuid]);

/**
 * The stream of an object on a board or not (`board`: its board's uuid, or null): its board's, or the
 * organization's. Locked before the object's own rows change: a board's or project's members, a task's or
 * comment's attachments and reactions, a project's or goal's.
 */
export async function lockStreamOf<T extends { board: string | null }>(w: PlanWrite, target: T): Promise<T> {
  await (target.board ? lockBoard(w.db, target.board) : lockOrganizationStream(w));
  return target;
}

/**
 * A board the caller manages (404 unseen, 403 only seen), locked for this write first: for writes of the board
 * and of its own rows (labels, states, members), which log on its stream. Read under the lock, so a board deleted
 * meanwhile is a 404.
 */
export async function writableBoard<Row extends { visibility: string }>(w: PlanWrite, uuid: string): Promise<Access<Row>> {
  await lockBoard(w.db, uuid);
  return managedBoard<Row>(w.db, w.actor, uuid);
}

/** A project the caller manages, the organization's stream locked first (as `writableBoard` for a board). */
export async function writableProject<Row extends { visibility: string }>(w: PlanWrite, uuid: string): Promise<Access<Row>> {
  await lockOrganizationStream(w);
  return managedProject<Row>(w.db, w.actor, uuid);
}
