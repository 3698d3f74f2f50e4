import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { badRequest } from '../../../lib/errors.ts';
import { LIST_QUERY, taskFilters } from '../tasks/schema.ts';
import { GROUP_BY, SUB_GROUP_BY, TASKS_PER_GROUP, taskBoard } from './service.ts';
import type { GroupBy } from './service.ts';

/** `GET /v1/plan/tasks/board/`: before `tasks/{task}/` (task-detail/), which would take `board` for a task. */
export function taskBoardRoutes(plan: PlanRoutes): void {
  plan.tagged('Plan: tasks').read(
    {
      path: '/v1/plan/tasks/board/',
      summary: 'The tasks a list\'s filters keep, as a board: columns (group_by), swimlanes (sub_group_by) and a window of tasks in each cell',
      response: 'PlanTaskBoard',
      personQuery: { owner: 'me' },
      query: [
        ...LIST_QUERY,
        { name: 'project', description: 'tasks of these projects\' boards only (uuids, comma-separated or repeated)' },
        { name: 'group_by', description: `${GROUP_BY.join(', ')} (default category)` },
        { name: 'sub_group_by', description: `${SUB_GROUP_BY.join(', ')} (default none)` },
        { name: 'tasks_per_group', description: `tasks in each cell's window, 1–${TASKS_PER_GROUP} (default ${TASKS_PER_GROUP})` },
        { name: 'offset', description: 'where each cell\'s window starts (a cell\'s next_offset)' },
        { name: 'group', description: 'only the column of this key' },
        { name: 'lane', description: 'only the lane of this key (with sub_group_by)' },
      ],
    },
    async (call) => {
      const subGroupBy = call.query.oneOf('sub_group_by', SUB_GROUP_BY) ?? 'none';
      const lane = call.query.text('lane');
      if (lane !== undefined && subGroupBy === 'none') throw badRequest('invalid_filter_value', 'lane names a swimlane: send sub_group_by too.', { parameter: 'lane' });
      return taskBoard(call, taskFilters(call.query, call.actor), {
        groupBy: call.query.oneOf('group_by', GROUP_BY) ?? 'category',
        subGroupBy: subGroupBy === 'none' ? null : (subGroupBy as GroupBy),
        projects: call.query.uuids('project'),
        perGroup: call.query.integer('tasks_per_group', { min: 1, max: TASKS_PER_GROUP }) ?? TASKS_PER_GROUP,
        offset: call.query.integer('offset', { min: 0, max: 1_000_000 }) ?? 0,
        group: call.query.text('group'),
        lane,
      });
    },
  );
}
