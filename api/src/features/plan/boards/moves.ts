import type { BoardRow, ProjectRow, TaskRow } from '../../../db/tables.ts';
import { ValidationFailed } from '../../../lib/errors.ts';
import { orNull, visibleBoard, visibleProject } from '../frame/access.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { positionFor } from '../frame/order.ts';
import { recordTaskChanges } from '../tasks/repository.ts';

/**
 * A board's place: its order among the boards of its project (`POST …/reorder/ {before | after}`), and a move to
 * another project (`project`). A task's milestone belongs to its board's project, so a move clears the milestones
 * of the other project on the board's tasks; `GET …/move-preview/?project=` says beforehand what a move changes.
 */
export interface ReorderInput {
  before?: string | null;
  after?: string | null;
  project?: string | null;
}

/** A project named as a board's destination: one the caller sees, else a field error. */
export async function destination(r: PlanRead, project: string | null): Promise<ProjectRow | null> {
  if (project === null) return null;
  const found = await orNull(visibleProject<ProjectRow>(r.db, r.actor, project));
  if (!found) throw new ValidationFailed({ project: ['No project with this id.'] });
  return found.row;
}

/** Tasks of the board whose milestone belongs to another project than `project` (every milestone when it is null). */
function foreignMilestoneTasks(r: PlanRead, board: string, project: string | null) {
  const query = r.db('plan_tasks as t').join('plan_milestones as m', 'm.uuid', 't.milestone_uuid').where('t.board_uuid', board);
  return project === null ? query : query.whereNot('m.project_uuid', project);
}

/** What moving the board into `project` would change; nothing is written. */
export async function movePreview(r: PlanRead, boardUuid: string, projectUuid: string) {
  const { row: board } = await visibleBoard<BoardRow>(r.db, r.actor, boardUuid);
  const target = await destination(r, projectUuid);
  const toProject = target?.uuid ?? null;
  const [{ count: tasks }] = await r.db('plan_tasks').where({ board_uuid: board.uuid }).count({ count: '*' });
  const [{ count: foreign }] = await foreignMilestoneTasks(r, board.uuid, toProject).count({ count: '*' });
  const projects = board.project_uuid === toProject ? [] : [board.project_uuid, toProject].filter((p): p is string => p !== null);
  const goals = projects.length ? await r.db('plan_projects').whereIn('uuid', projects).whereNotNull('goal_uuid').distinct('goal_uuid') : [];
  return {
    board: board.uuid,
    from_project_uuid: board.project_uuid,
    to_project_uuid: toProject,
    moves: board.project_uuid !== toProject,
    tasks_count: Number(tasks),
    tasks_with_foreign_milestone: Number(foreign),
    goals_affected: goals.length,
  };
}

/** Clears the milestones of other projects on the board's tasks (one task change each). */
export async function clearForeignMilestones(w: PlanWrite, board: string, project: string | null): Promise<void> {
  const tasks: TaskRow[] = await foreignMilestoneTasks(w, board, project).select('t.*');
  const cleared = tasks.map((task) => ({ ...task, milestone_uuid: null, version: Number(task.version) + 1, updated_at: w.now.toISOString() }));
  for (const task of cleared) await w.db('plan_tasks').where({ uuid: task.uuid }).update({ milestone_uuid: null, version: task.version, updated_at: task.updated_at });
  await recordTaskChanges(w, cleared, 'updated', ['milestone']);
}

/**
 * Where the board goes: its new position among the boards of its project
 * (`before`/`after` one of them, or last), and its new project when `project` names one (null: out of any
 * project), with the milestones of the old project cleared from its tasks. Answers the board's changed columns.
 */
export async function placeBoard(w: PlanWrite, board: BoardRow, input: ReorderInput): Promise<Partial<BoardRow>> {
  const project = input.project === undefined ? board.project_uuid : ((await destination(w, input.project))?.uuid ?? null);
  const isSibling = async (other: string) => {
    const row = await orNull(visibleBoard<BoardRow>(w.db, w.actor, other));
    return row !== null && row.row.project_uuid === project;
  };
  const changes: Partial<BoardRow> = { position: await positionFor(w.db, 'plan_boards', board.organization_uuid, board.uuid, input, isSibling) };
  if (project !== board.project_uuid) {
    changes.project_uuid = project;
    await clearForeignMilestones(w, board.uuid, project);
  }
  return changes;
}
