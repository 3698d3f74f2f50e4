import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Executor } from '../../../db/connection.ts';
import { badRequest } from '../../../lib/errors.ts';

/**
 * The order people give boards and projects (migration 1000): each row's `position` is a fractional index in its
 * organization's order, like a task's rank in a column. A new one goes last; a move names one neighbour
 * (`before` or `after`, not both: 400 reorder_anchor_invalid) among its siblings, or none to go last. Two rows
 * created at the same moment may share a position (the list then orders them by uuid); a move between them
 * spreads the organization's positions first.
 */
export type OrderedTable = 'plan_boards' | 'plan_projects';

interface Placed {
  uuid: string;
  position: string | null;
}

/** The position after every other of the organization. */
export async function lastPosition(db: Executor, table: OrderedTable, organizationUuid: string): Promise<string> {
  const last = await db(table).where({ organization_uuid: organizationUuid }).max({ position: 'position' }).first();
  return generateKeyBetween((last?.position as string | null | undefined) ?? null, null);
}

const anchorInvalid = (detail: string, parameter: 'before' | 'after') => badRequest('reorder_anchor_invalid', detail, { parameter });

/** The organization's rows in order; rows that share a position are spread first, so neighbours always differ. */
async function ordered(db: Executor, table: OrderedTable, organizationUuid: string): Promise<Placed[]> {
  const rows: Placed[] = await db(table).where({ organization_uuid: organizationUuid }).orderBy([{ column: 'position' }, { column: 'uuid' }]).select('uuid', 'position');
  if (rows.every((row, i) => row.position !== null && (i === 0 || row.position > rows[i - 1].position!))) return rows;
  const spread = generateNKeysBetween(null, null, rows.length);
  for (const [i, row] of rows.entries()) {
    row.position = spread[i];
    await db(table).where({ uuid: row.uuid }).update({ position: row.position });
  }
  return rows;
}

/**
 * The new position of `uuid`: right before `before` or right after `after` (a sibling: `isSibling` says which rows
 * are, else 400 reorder_anchor_invalid), or last. The caller writes it.
 */
export async function positionFor(
  db: Executor,
  table: OrderedTable,
  organizationUuid: string,
  uuid: string,
  anchor: { before?: string | null; after?: string | null },
  isSibling: (uuid: string) => Promise<boolean>,
): Promise<string> {
  const before = anchor.before ?? null;
  const after = anchor.after ?? null;
  if (before && after) throw anchorInvalid('Name one neighbour: before or after, not both.', 'after');
  const target = before ?? after;
  if (!target) return lastPosition(db, table, organizationUuid);
  const parameter = before ? 'before' : 'after';
  if (target.toLowerCase() === uuid) throw anchorInvalid('A board or project cannot be placed next to itself.', parameter);
  if (!(await isSibling(target.toLowerCase()))) throw anchorInvalid('The neighbour must be a sibling you see (a board of the same project; a project of the organization).', parameter);
  const rows = (await ordered(db, table, organizationUuid)).filter((row) => row.uuid !== uuid);
  const at = rows.findIndex((row) => row.uuid === target.toLowerCase());
  const [low, high] = before ? [rows[at - 1]?.position ?? null, rows[at].position] : [rows[at].position, rows[at + 1]?.position ?? null];
  return generateKeyBetween(low, high);
}
