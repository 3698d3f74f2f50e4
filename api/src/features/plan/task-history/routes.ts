import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentActivity, presentEvent } from './presenter.ts';
import { taskActivity, taskEvents } from './service.ts';

const ORDERING = { created_at: 'id' };

export function taskHistoryRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: task history');
  r.list(
    {
      path: '/v1/plan/tasks/:task/events/',
      summary: 'The change-log rows of a task and what hangs on it, oldest first (ordering=-created_at: newest first)',
      item: 'PlanTaskEvent',
      keyParams: ['task'],
      query: [{ name: 'ordering', description: 'created_at (default) or -created_at' }],
    },
    async (call) => {
      const ordering = call.query.ordering(ORDERING, { column: 'id', order: 'asc' });
      const { count, rows } = await taskEvents(call, call.params.task, ordering.order === 'desc', call.page);
      return { count, results: rows.map(presentEvent) };
    },
  );
  r.list(
    { path: '/v1/plan/tasks/:task/activity/', summary: 'What happened to a task, newest first: who (and which agent) changed what, from what to what', item: 'PlanTaskActivity', keyParams: ['task'] },
    async (call) => {
      const { count, rows } = await taskActivity(call, call.params.task, call.page);
      return { count, results: rows.map(presentActivity) };
    },
  );
}
