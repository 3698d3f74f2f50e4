import type { PlanRoutes, ReadCall, WriteCall } from '../../../http/plan/registrar.ts';
import type { QueryDoc } from '../../../http/plan/declarations.ts';
import { ValidationFailed } from '../../../lib/errors.ts';
import type { PresentedTask } from './repository.ts';
import { ME_ROLES, TASK_SORTS, listTasks, withIncludes } from './lists.ts';
import type { ListScope } from './lists.ts';
import { moveTaskToBoard, moveTask } from './placement.ts';
import { expectedVersion, includeOf, taskFilters } from './query.ts';
import { archiveTask, batchLabels, createTask, createTaskOn, deleteTask, duplicateTask, getTask, restoreTask, updateTask } from './service.ts';
import {
  boardTaskSchema, createTaskSchema, duplicateTaskSchema, labelsBatchSchema, moveBoardSchema, moveTaskSchema, updateTaskSchema,
} from './schema.ts';
import { findTask } from './access.ts';
import { linkRoutes } from './link-routes.ts';

/** Task routes: lists, creation, one task, its changes and placement (the links around it: link-routes.ts). */

const TASK = '/v1/plan/tasks/:task';
const keyParams = ['task'];

export const LIST_QUERY: QueryDoc[] = [
  { name: 'state', description: 'state uuids (comma-separated or repeated, at most 50)' },
  { name: 'label', description: 'label uuids (at most 50; 400 invalid_label_filter)' },
  { name: 'owner', description: '"me", a user uuid or "unowned" (comma-separated)' },
  { name: 'board', description: 'board uuids (organization-wide lists)' },
  { name: 'priority', description: '1–5, comma-separated' },
  { name: 'parent_task', description: 'sub-tasks of this task (uuid or KEY-n)' },
  { name: 'milestone', description: 'milestone uuid' },
  { name: 'since', description: 'created on or after this day (YYYY-MM-DD; also start_date)' },
  { name: 'until', description: 'created on or before this day (YYYY-MM-DD; also end_date)' },
  { name: 'date', description: 'created on this day (YYYY-MM-DD)' },
  { name: 'due_from', description: 'due on or after this day (YYYY-MM-DD)' },
  { name: 'due_to', description: 'due on or before this day (YYYY-MM-DD)' },
  { name: 'include', description: 'archived, participants, relations, children (comma-separated)' },
  { name: 'sort', description: `${Object.keys(TASK_SORTS).join(', ')}; prefix - for descending (also ordering); default rank (board order)` },
  { name: 'search', description: 'words starting the words of the title or description, or a KEY-n (2–256 characters)' },
];

/** What every task write answers: the task, and its version as ETag (for If-Match). */
function answer(call: WriteCall<unknown>, task: PresentedTask): PresentedTask {
  call.header('ETag', `"${task.version}"`);
  return task;
}

const allocation = (call: WriteCall<unknown>) => ({ lockTimeoutMs: call.deps.config.planLockTimeoutMs });
const ifMatch = (call: WriteCall<unknown>, version?: number) => expectedVersion(call.query.header('if-match'), version);

export function taskRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: tasks');
  const list = (scope: (call: ReadCall) => ListScope) => async (call: ReadCall) => {
    const { count, results } = await listTasks(call, scope(call), taskFilters(call.query, call.actor), call.page);
    return { count, results };
  };
  r.list({ path: '/v1/plan/tasks/', summary: 'Every task you can see, with filters', item: 'PlanTask', personQuery: { owner: 'me' }, query: LIST_QUERY }, list(() => ({ all: true })));
  r.list({ path: '/v1/plan/boards/:board/tasks/', summary: 'Tasks of a board, with filters', item: 'PlanTask', personQuery: { owner: 'me' }, query: LIST_QUERY }, list((call) => ({ board: call.params.board })));
  r.list(
    {
      path: '/v1/plan/me/tasks/',
      summary: 'Your tasks: those you own (role=owner), take part in (participant), created (creator), or any of them',
      item: 'PlanTask',
      person: true,
      query: [{ name: 'role', description: 'owner (default), participant, creator or any' }, ...LIST_QUERY],
    },
    list((call) => ({ me: call.query.oneOf('role', ME_ROLES) ?? 'owner' })),
  );
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

  r.read({ path: `${TASK}/`, summary: 'One task, by uuid or KEY-n (an old key too)', response: 'PlanTask', keyParams, query: [{ name: 'include', description: 'participants, relations, children' }] }, async (call) => {
    const { task } = await getTask(call, call.params.task);
    return (await withIncludes(call, [task], includeOf(call.query)))[0];
  });
  r.write(
    { method: 'patch', path: `${TASK}/`, summary: 'Change a task; version (body) or If-Match: 409 version_conflict when stale', body: updateTaskSchema, response: 'PlanTask', keyParams },
    async (call) => {
      const { version, ...fields } = call.body;
      return answer(call, await updateTask(call, call.params.task, fields, ifMatch(call, version)));
    },
  );
  r.write({ method: 'delete', path: `${TASK}/`, summary: 'Delete a task (its creator, board managers, admins); sub-tasks stay, detached', status: 204, keyParams }, (call) =>
    deleteTask(call, call.params.task),
  );
  r.write({ method: 'post', path: `${TASK}/archive/`, summary: 'Archive a task', destructive: true, response: 'PlanTask', keyParams }, async (call) =>
    answer(call, await archiveTask(call, call.params.task, ifMatch(call))),
  );
  r.write({ method: 'post', path: `${TASK}/restore/`, summary: 'Restore an archived task (422 column_too_large when its column is full)', response: 'PlanTask', keyParams }, async (call) =>
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
    },
    async (call) => answer(call, await moveTaskToBoard(call, call.params.task, call.body, allocation(call), ifMatch(call))),
  );
  r.list(
    { path: `${TASK}/children/`, summary: 'Sub-tasks of a task', item: 'PlanTask', keyParams, query: LIST_QUERY.filter((q) => q.name !== 'parent_task') },
    async (call) => {
      const { task } = await getTask(call, call.params.task);
      const filters = { ...taskFilters(call.query, call.actor), parent: task.uuid };
      const { count, results } = await listTasks(call, { board: task.board_uuid }, filters, call.page);
      return { count, results };
    },
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
  r.write({ method: 'post', path: `${TASK}/labels/batch/`, summary: 'Add, remove or replace labels of a task', body: labelsBatchSchema, response: 'PlanTask', keyParams }, async (call) =>
    answer(call, await batchLabels(call, call.params.task, call.body.mode, call.body.labels, ifMatch(call))),
  );
  linkRoutes(plan);
}
