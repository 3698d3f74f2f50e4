import type { Knex } from 'knex';
import type { Actor } from '../../../auth/credentials.ts';
import { can, canManagePlanContainer, canSeePlanContainer } from '../../../auth/policy.ts';
import type { Executor } from '../../../db/connection.ts';
import { firstOf } from '../../../db/raw-sql.ts';
import type { GoalRow, MemberRole } from '../../../db/tables.ts';
import { notFound } from '../../../lib/errors.ts';
import { boardManagerRequired, projectManagerRequired } from './errors.ts';

/**
 * Boards and projects as the caller may see and manage them (the rules: auth/policy.ts). A board or project with
 * `visibility: org` is visible to every member who may use Plan; a `members` one only to its members (and
 * admins). Its members with role `manager` manage it (its creator is the first). Something invisible is a 404
 * with the body of an absent object, and a filter naming it matches nothing.
 */

type Container = 'board' | 'project';
const TABLES = {
  board: { rows: 'plan_boards', members: 'plan_board_members', column: 'board_uuid', refusal: boardManagerRequired },
  project: { rows: 'plan_projects', members: 'plan_project_members', column: 'project_uuid', refusal: projectManagerRequired },
} as const;

export async function memberRole(db: Executor, container: Container, uuid: string, userUuid: string): Promise<MemberRole | null> {
  const { members, column } = TABLES[container];
  // Raw SQL: this runs on nearly every Plan request (db/raw-sql.ts).
  const row = await firstOf<{ role: MemberRole }>(db, `select role from ${members} where ${column} = ? and user_uuid = ? limit 1`, [uuid, userUuid]);
  return row?.role ?? null;
}

export interface Access<Row> {
  row: Row;
  /** The caller's membership role, or null (not a member; for admins on org-visible containers, not looked up). */
  role: MemberRole | null;
}

/**
 * A board or project the caller may see, or 404. Two single-table lookups rather than a join: SQLite re-prepares
 * joined statements on every run (README, performance notes), and the membership is needed only for a
 * members-only container or a management check.
 */
async function visible<Row extends { visibility: string }>(db: Executor, actor: Actor, container: Container, uuid: string, needRole: boolean): Promise<Access<Row>> {
  const row = await firstOf<Row & { organization_uuid: string }>(db, `select * from ${TABLES[container].rows} where uuid = ? limit 1`, [uuid]);
  if (!row || row.organization_uuid !== actor.organization.uuid) throw notFound();
  const lookUp = needRole ? !can(actor, 'plan.manage_all') : row.visibility !== 'org' && !can(actor, 'plan.manage_all');
  const role = lookUp ? await memberRole(db, container, uuid, actor.user.uuid) : null;
  if (!canSeePlanContainer(actor, row.visibility, role)) throw notFound();
  return { row, role };
}

export const visibleBoard = <Row extends { visibility: string }>(db: Executor, actor: Actor, uuid: string) => visible<Row>(db, actor, 'board', uuid, false);
export const visibleProject = <Row extends { visibility: string }>(db: Executor, actor: Actor, uuid: string) => visible<Row>(db, actor, 'project', uuid, false);

/** A board or project the caller manages: 404 when invisible, 403 when only visible. */
async function managed<Row extends { visibility: string }>(db: Executor, actor: Actor, container: Container, uuid: string): Promise<Access<Row>> {
  const access = await visible<Row>(db, actor, container, uuid, true);
  if (!canManagePlanContainer(actor, access.role)) throw TABLES[container].refusal();
  return access;
}

export const managedBoard = <Row extends { visibility: string }>(db: Executor, actor: Actor, uuid: string) => managed<Row>(db, actor, 'board', uuid);
export const managedProject = <Row extends { visibility: string }>(db: Executor, actor: Actor, uuid: string) => managed<Row>(db, actor, 'project', uuid);

/**
 * Restricts a query on `alias` (plan_boards or plan_projects) to what the caller may see: the organization's, and
 * for a non-admin only org-visible ones or those they are a member of.
 */
export function whereVisible(query: Knex.QueryBuilder, db: Executor, actor: Actor, container: Container, alias: string): Knex.QueryBuilder {
  query.where(`${alias}.organization_uuid`, actor.organization.uuid);
  if (can(actor, 'plan.manage_all')) return query;
  const { members, column } = TABLES[container];
  return query.andWhere((visibleTo) => {
    visibleTo
      .where(`${alias}.visibility`, 'org')
      .orWhereExists(db(members).select(db.raw('1')).whereRaw(`??.?? = ??.uuid`, [members, column, alias]).andWhere(`${members}.user_uuid`, actor.user.uuid));
  });
}

/** The object, or null when it is absent or invisible (a 404); other errors pass through. */
export async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (err) {
    if ((err as { status?: number; code?: string }).status === 404 && (err as { code?: string }).code === 'not_found') return null;
    throw err;
  }
}

/** A goal of the caller's organization (goals are visible to everyone who may use Plan), or 404. */
export async function visibleGoal(db: Executor, actor: Actor, uuid: string): Promise<GoalRow> {
  const row = await db('plan_goals').where({ uuid }).first();
  if (!row || row.organization_uuid !== actor.organization.uuid) throw notFound();
  return row;
}
