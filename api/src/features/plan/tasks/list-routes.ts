import type { PlanRoutes, ReadCall } from '../../../http/plan/registrar.ts';
import { getTask } from './service.ts';
import { ME_ROLES, ME_SCOPES, listTasks } from './lists.ts';
import type { ListScope } from './lists.ts';
import { LIST_QUERY, taskFilters } from './schema.ts';

/** The task lists: every task the caller sees, a board's, the caller's own, a task's sub-tasks. */
export function taskListRoutes(plan: PlanRoutes): void {
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
      query: [
        { name: 'role', description: 'owner (default), participant, creator or any' },
        { name: 'scope', description: 'the DailyBot client\'s name for role: owned (owner), participating (participant), involved (any)' },
        ...LIST_QUERY,
      ],
    },
    list((call) => {
      const scope = call.query.oneOf('scope', Object.keys(ME_SCOPES));
      return { me: call.query.oneOf('role', ME_ROLES) ?? (scope === undefined ? 'owner' : ME_SCOPES[scope]) };
    }),
  );
  r.list(
    { path: '/v1/plan/tasks/:task/children/', summary: 'Sub-tasks of a task', item: 'PlanTask', keyParams: ['task'], query: LIST_QUERY.filter((q) => q.name !== 'parent_task') },
    async (call) => {
      const { task } = await getTask(call, call.params.task);
      const filters = { ...taskFilters(call.query, call.actor), parent: task.uuid };
      const { count, results } = await listTasks(call, { board: task.board_uuid }, filters, call.page);
      return { count, results };
    },
  );
}
