import type { Actor } from '../../../auth/credentials.ts';
import { canSeePlanContainer } from '../../../auth/policy.ts';
import type { Executor } from '../../../db/connection.ts';
import { RELATION_TYPES } from '../../../db/tables.ts';
import type { RelationType, TaskRelationRow, TaskRow } from '../../../db/tables.ts';
import { conflict, notFound } from '../../../lib/errors.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { lockOrganization } from '../../../outbox/plan-changes.ts';
import { memberRole } from '../frame/access.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { findTask, visibleTask, writableTask } from './access.ts';
import { lockBoards } from '../frame/locks.ts';
import { boardKeys } from './repository.ts';
import { invalidRelation } from './rules.ts';

/**
 * Links between tasks (CONTRACT §9): `blocks`, `relates_to`, `duplicates`, stored once from the source's side
 * and read from either: the target sees `blocked_by`, `duplicated_by`, or `relates_to`. A task's other side
 * is shown only when the caller sees its board. `blocks` never forms a cycle, of any length: the check walks
 * the links in the database, in the transaction that adds one, with the organization's Plan row locked, so two
 * links added at once cannot close a cycle between them.
 */

/** The spec's ceiling of `blocks` links per task (each way). */
export const BLOCKS_LIMIT = 50;

const INVERSE: Record<RelationType, string> = { blocks: 'blocked_by', duplicates: 'duplicated_by', relates_to: 'relates_to' };

export interface RelationView {
  uuid: string;
  id: string;
  relation_type: string;
  /** Whether the link was made from this task (`outgoing`) or from the other one (`incoming`). */
  direction: 'outgoing' | 'incoming';
  task: { uuid: string; id: string; key: string; title: string };
  /** `task` again, under the DailyBot client's name. */
  other_task: { uuid: string; id: string; key: string; title: string };
  created_by: string | null;
  created_at: string;
}

/** Boards among `boardUuids` the caller sees. */
async function seenBoards(db: Executor, actor: Actor, boardUuids: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const uuid of new Set(boardUuids)) {
    const board = await db('plan_boards').where({ uuid }).first('visibility');
    if (board && canSeePlanContainer(actor, board.visibility, board.visibility === 'org' ? null : await memberRole(db, 'board', uuid, actor.user.uuid))) seen.add(uuid);
  }
  return seen;
}

/** The relations of each task, from its side, the other task's board visible to the caller. */
export async function relationsOf(db: Executor, actor: Actor, taskUuids: string[]): Promise<Map<string, RelationView[]>> {
  const byTask = new Map<string, RelationView[]>(taskUuids.map((uuid) => [uuid, []]));
  if (taskUuids.length === 0) return byTask;
  const rows: TaskRelationRow[] = await db('plan_task_relations')
    .where((q) => q.whereIn('source_task_uuid', taskUuids).orWhereIn('target_task_uuid', taskUuids))
    .orderBy([{ column: 'created_at' }, { column: 'uuid' }]);
  const others = [...new Set(rows.flatMap((r) => [r.source_task_uuid, r.target_task_uuid]))];
  const tasks: Pick<TaskRow, 'uuid' | 'board_uuid' | 'number' | 'title'>[] = others.length ? await db('plan_tasks').whereIn('uuid', others).select('uuid', 'board_uuid', 'number', 'title') : [];
  const taskByUuid = new Map(tasks.map((t) => [t.uuid, t]));
  const keys = await boardKeys(db, tasks.map((t) => t.board_uuid));
  const visible = await seenBoards(db, actor, tasks.map((t) => t.board_uuid));
  const view = (row: TaskRelationRow, otherUuid: string, type: string, direction: RelationView['direction']): RelationView | null => {
    const other = taskByUuid.get(otherUuid);
    if (!other || !visible.has(other.board_uuid)) return null;
    const task = { uuid: other.uuid, id: other.uuid, key: `${keys.get(other.board_uuid)}-${other.number}`, title: other.title };
    return { uuid: row.uuid, id: row.uuid, relation_type: type, direction, task, other_task: task, created_by: row.created_by_uuid, created_at: row.created_at };
  };
  for (const row of rows) {
    const outgoing = byTask.has(row.source_task_uuid) ? view(row, row.target_task_uuid, row.relation_type, 'outgoing') : null;
    if (outgoing) byTask.get(row.source_task_uuid)!.push(outgoing);
    const incoming = byTask.has(row.target_task_uuid) ? view(row, row.source_task_uuid, INVERSE[row.relation_type], 'incoming') : null;
    if (incoming) byTask.get(row.target_task_uuid)!.push(incoming);
  }
  return byTask;
}

export async function listRelations(r: PlanRead, ref: string): Promise<RelationView[]> {
  const { task } = await visibleTask(r, ref);
  return (await relationsOf(r.db, r.actor, [task.uuid])).get(task.uuid) ?? [];
}

const snapshotOf = (row: TaskRelationRow) => ({
  uuid: row.uuid, id: row.uuid, relation_type: row.relation_type, source_task: row.source_task_uuid, target_task: row.target_task_uuid, created_by: row.created_by_uuid, created_at: row.created_at,
});

/**
 * A link's change is logged once for each task it links (the same relation uuid, on each task's board stream),
 * so both tasks' events and activity show it.
 */
export async function recordRelationChange(w: PlanWrite, row: TaskRelationRow, change: 'created' | 'deleted', tasks: Pick<TaskRow, 'uuid' | 'board_uuid'>[]): Promise<void> {
  for (const side of tasks) {
    await w.changes.record({ kind: 'task_relation', uuid: row.uuid, change, board: side.board_uuid, task: side.uuid, snapshot: change === 'deleted' ? null : snapshotOf(row) });
  }
}

/** Whether `to` is reachable from `from` along `blocks` links (a recursive query, in the caller's transaction). */
async function blocksPath(db: Executor, from: string, to: string): Promise<boolean> {
  const found = await db
    .withRecursive('reach', ['uuid'], (q) => {
      q.select('target_task_uuid').from('plan_task_relations').where({ source_task_uuid: from, relation_type: 'blocks' })
        .union((next) => next.select('r.target_task_uuid').from('plan_task_relations as r').join('reach', 'reach.uuid', 'r.source_task_uuid').where('r.relation_type', 'blocks'));
    })
    .select('uuid').from('reach').where('uuid', to).first();
  return found !== undefined;
}

async function countBlocks(db: Executor, column: 'source_task_uuid' | 'target_task_uuid', task: string): Promise<number> {
  const [{ count }] = await db('plan_task_relations').where({ [column]: task, relation_type: 'blocks' }).count({ count: '*' });
  return Number(count);
}

/**
 * Links `ref` to `targetRef`. 400 `invalid_relation` for the task itself, a target that is no task the caller
 * sees in the organization (one of another organization answers the same), or a task already at 50 `blocks`
 * links; 409 `relation_exists` when the two are already linked this way (`relates_to` and `duplicates` either
 * way round); 409 `relation_cycle` when `blocks` would close a cycle.
 */
export async function addRelation(w: PlanWrite, ref: string, type: RelationType, targetRef: string): Promise<RelationView> {
  const { task } = await visibleTask(w, ref);
  const target = await findTask(w.db, w.actor.organization.uuid, targetRef);
  if (target && target.uuid === task.uuid) throw invalidRelation('A task cannot be related to itself.', { parameter: 'target_task' });
  if (!target || !(await seenBoards(w.db, w.actor, [target.board_uuid])).has(target.board_uuid)) {
    throw invalidRelation('target_task names no task you can see in this organization.', { parameter: 'target_task' });
  }
  // One writer of the organization's links at a time: the cycle and limit checks below see every committed link.
  await lockOrganization(w.db, w.actor.organization.uuid, w.now);
  // Then both tasks' boards (the link logs on both), before the link points at the tasks.
  await lockBoards(w.db, [task.board_uuid, target.board_uuid]);
  const symmetric = type !== 'blocks';
  const existing = await w.db('plan_task_relations')
    .where({ relation_type: type })
    .andWhere((q) => {
      q.where({ source_task_uuid: task.uuid, target_task_uuid: target.uuid });
      if (symmetric) q.orWhere({ source_task_uuid: target.uuid, target_task_uuid: task.uuid });
    })
    .first('uuid');
  if (existing) throw conflict('relation_exists', `These tasks are already linked with ${type}.`, { relation: existing.uuid });
  if (type === 'blocks') {
    if ((await countBlocks(w.db, 'source_task_uuid', task.uuid)) >= BLOCKS_LIMIT) throw invalidRelation(`This task already blocks ${BLOCKS_LIMIT} tasks.`, { limit: BLOCKS_LIMIT });
    if ((await countBlocks(w.db, 'target_task_uuid', target.uuid)) >= BLOCKS_LIMIT) throw invalidRelation(`The target task is already blocked by ${BLOCKS_LIMIT} tasks.`, { limit: BLOCKS_LIMIT });
    if (await blocksPath(w.db, target.uuid, task.uuid)) throw conflict('relation_cycle', 'This link would make the blocking tasks a cycle: the target already blocks this task, directly or through others.');
  }
  const row: TaskRelationRow = {
    uuid: uuidv7(w.now.getTime()), organization_uuid: w.actor.organization.uuid, source_task_uuid: task.uuid, target_task_uuid: target.uuid,
    relation_type: type, created_by_uuid: w.actor.user.uuid, created_at: w.now.toISOString(),
  };
  await w.db('plan_task_relations').insert(row);
  await recordRelationChange(w, row, 'created', [task, target]);
  return (await relationsOf(w.db, w.actor, [task.uuid])).get(task.uuid)!.find((v) => v.uuid === row.uuid)!;
}

/** Removes a link, from either of its tasks. */
export async function removeRelation(w: PlanWrite, ref: string, relationUuid: string) {
  const otherOf = async (task: TaskRow) => {
    const row: TaskRelationRow | undefined = await w.db('plan_task_relations').where({ uuid: relationUuid }).first();
    if (!row || (row.source_task_uuid !== task.uuid && row.target_task_uuid !== task.uuid)) throw notFound();
    return { row, other: (await w.db('plan_tasks').where({ uuid: row.source_task_uuid === task.uuid ? row.target_task_uuid : row.source_task_uuid }).first())! };
  };
  // Both tasks' boards first (the removal logs on both), then this task, under those locks.
  const { task: seen } = await visibleTask(w, ref);
  await lockBoards(w.db, [seen.board_uuid, (await otherOf(seen)).other.board_uuid]);
  const { task } = await writableTask(w, ref);
  const { row, other } = await otherOf(task);
  await w.db('plan_task_relations').where({ uuid: row.uuid }).delete();
  await recordRelationChange(w, row, 'deleted', [task, other]);
  return { deleted: { object_kind: 'task_relation', uuid: row.uuid, relation_type: row.relation_type } };
}

export const isRelationType = (value: string): value is RelationType => (RELATION_TYPES as readonly string[]).includes(value);

/**
 * Before a board's tasks are deleted with it: their links to tasks of other boards go too (by cascade), and those
 * other tasks log it, as when one task is deleted.
 */
export async function forgetLinksOfBoard(w: PlanWrite, boardUuid: string): Promise<number> {
  const onBoard = () => w.db('plan_tasks').select('uuid').where({ board_uuid: boardUuid });
  const rows: TaskRelationRow[] = await w.db('plan_task_relations').where((q) => q.whereIn('source_task_uuid', onBoard()).orWhereIn('target_task_uuid', onBoard()));
  let logged = 0;
  for (const row of rows) {
    for (const side of [row.source_task_uuid, row.target_task_uuid]) {
      const task = await w.db('plan_tasks').where({ uuid: side }).first('uuid', 'board_uuid');
      if (task && task.board_uuid !== boardUuid) {
        await recordRelationChange(w, row, 'deleted', [task]);
        logged++;
      }
    }
  }
  return logged;
}
