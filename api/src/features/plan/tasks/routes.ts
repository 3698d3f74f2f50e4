import type { PlanRoutes, WriteCall } from '../../../http/plan/registrar.ts';
import { ValidationFailed, badRequest, invalidFilter } from '../../../lib/errors.ts';
import type { PresentedTask } from './repository.ts';
import { moveTaskToBoard, moveTask } from './placement.ts';
import { taskListRoutes } from './list-routes.ts';
import { archiveTask, batchLabels, createTask, createTaskOn, deleteTask, duplicateTask, getTask, restoreTask, updateTask } from './service.ts';
import {
  boardTaskSchema, createTaskSchema, duplicateTaskSchema, labelsBatchSchema, moveBoardSchema, moveTaskSchema, updateTaskSchema,
} from './schema.ts';
import { findTask } from './access.ts';
import { linkRoutes } from './link-routes.ts';

/** Task routes: lists, creation, one task, its changes and placement (the links around it: link-routes.ts). */

const TASK = '/v1/plan/tasks/:task';
const keyParams = ['task'];
/** The writes that take the task's version as If-Match (the answer's ETag). */
const headers = [{ name: 'If-Match', description: 'The task\'s version, as "3" (the ETag of its last answer); stale: 409 version_conflict' }];

/**
 * The version a write expects: the body's `version` or the If-Match header (`"3"`, `W/"3"` or `3`; `*` is
 * any). Both, differing: 400 `version_precondition_ambiguous`. An unreadable If-Match: 400
 * `invalid_filter_value` naming it.
 */
export function expectedVersion(ifMatch: string | undefined, version: number | undefined): number | undefined {
  let fromHeader: number | undefined;
  if (ifMatch !== undefined && ifMatch.trim() !== '*') {
    const match = /^\s*(?:W\/)?"?([1-9][0-9]{0,9})"?\s*$/.exec(ifMatch);
    if (!match) throw invalidFilter('If-Match', 'If-Match must be the task\'s version, as "3".');
    fromHeader = Number(match[1]);
  }
  if (fromHeader !== undefined && version !== undefined && fromHeader !== version) {
    throw badRequest('version_precondition_ambiguous', `If-Match (${fromHeader}) and the body's version (${version}) differ; send one.`, { if_match: fromHeader, version });
  }
  return version ?? fromHeader;
}

/** What every task write answers: the task, and its version as ETag (for If-Match). */
function answer(call: WriteCall<unknown>, task: PresentedTask): PresentedTask {
  call.header('ETag', `"${task.version}"`);
  return task;
}

const allocation = (call: WriteCall<unknown>) => ({ lockTimeoutMs: call.deps.config.planLockTimeoutMs });
const ifMatch = (call: WriteCall<unknown>, version?: number) => expectedVersion(call.query.header('if-match'), version);

export function taskRoutes(plan: PlanRoutes): void {
  taskListRoutes(plan);
  const r = plan.tagged('Plan: tasks');
  const created = (call: WriteCall<unknown>, task: PresentedTask) => {
    call.header('Location', `/v1/plan/tasks/${task.uuid}/`);
    return answer(call, task);
  };
  const createDoc = 'KEY-n from the board (409 identifier_allocation_failed: retry with the same Idempotency-Key); milestone answers 501 (PATCH sets it)';
  r.write({ method: 'post', path: '/v1/plan/tasks/', summary: `Create a task on the board the body names; ${createDoc}`, body: createTaskSchema, status: 201, response: 'PlanTask' }, async (call) =>
    created(call, await createTaskOn(call, call.body, allocation(call))),
  );
  r.write({ method: 'post', path: '/v1/plan/boards/:board/tasks/', summary: `Create a task on this board; ${createDoc}`, body: boardTaskSchema, status: 201, response: 'PlanTask' }, async (call) =>
    created(call, await createTask(call, call.params.board, call.body, allocation(call))),
  );

  r.write(
    { method: 'patch', path: `${TASK}/`, summary: 'Change a task; version (body) or If-Match: 409 version_conflict when stale', body: updateTaskSchema, response: 'PlanTask', keyParams, headers },
    async (call) => {
      const { version, ...fields } = call.body;
      return answer(call, await updateTask(call, call.params.task, fields, ifMatch(call, version)));
    },
  );
  r.write({ method: 'delete', path: `${TASK}/`, summary: 'Delete a task (its creator, board managers, admins); sub-tasks stay, detached', status: 204, keyParams }, (call) =>
    deleteTask(call, call.params.task),
  );
  r.write({ method: 'post', path: `${TASK}/archive/`, summary: 'Archive a task', destructive: true, response: 'PlanTask', keyParams, headers }, async (call) =>
    answer(call, await archiveTask(call, call.params.task, ifMatch(call))),
  );
  r.write({ method: 'post', path: `${TASK}/restore/`, summary: 'Restore an archived task (422 column_too_large when its column is full)', response: 'PlanTask', keyParams, headers }, async (call) =>
    answer(call, await restoreTask(call, call.params.task, ifMatch(call))),
  );
  r.write(
    { method: 'post', path: `${TASK}/duplicate/`, summary: 'Copy a task right after it, with a new key (403 task_archived for an archived one)', body: duplicateTaskSchema, status: 201, response: 'PlanTask', keyParams },
    async (call) => created(call, await duplicateTask(call, call.params.task, call.body.title, allocation(call))),
  );
  r.write(
    {
      method: 'post',
      path: `${TASK}/move/`,
      summary: 'Place a task in a column, after and/or before tasks of it (409 rank_neighbor_missing names the column\'s head and tail)',
      body: moveTaskSchema,
      response: 'PlanTask',
      keyParams,
      headers,
    },
    async (call) => answer(call, await moveTask(call, call.params.task, call.body, ifMatch(call))),
  );
  r.write(
    {
      method: 'post',
      path: `${TASK}/move-board/`,
      summary: 'Move a task to another board with state or state_map (400 move_board_state_invalid); a new key, the old one still resolves',
      body: moveBoardSchema,
      destructive: true,
      response: 'PlanTask',
      keyParams,
      headers,
    },
    async (call) => answer(call, await moveTaskToBoard(call, call.params.task, call.body, allocation(call), ifMatch(call))),
  );
  r.write(
    { method: 'post', path: `${TASK}/children/`, summary: 'Create a sub-task on the task\'s board (sub-tasks nest one level: 400 subtask_depth_exceeded)', body: boardTaskSchema, status: 201, response: 'PlanTask', keyParams },
    async (call) => {
      const { task } = await getTask(call, call.params.task);
      if (call.body.parent_task && (await findTask(call.db, call.actor.organization.uuid, call.body.parent_task))?.uuid !== task.uuid) {
        throw new ValidationFailed({ parent_task: ['A sub-task created here has this task as its parent; leave parent_task out.'] });
      }
      return created(call, await createTask(call, task.board_uuid, { ...call.body, parent_task: task.uuid }, allocation(call)));
    },
  );
  r.write({ method: 'post', path: `${TASK}/labels/batch/`, summary: 'Add, remove or replace labels of a task', body: labelsBatchSchema, response: 'PlanTask', keyParams, headers }, async (call) =>
    answer(call, await batchLabels(call, call.params.task, call.body.mode, call.body.labels, ifMatch(call))),
  );
  linkRoutes(plan);
}
