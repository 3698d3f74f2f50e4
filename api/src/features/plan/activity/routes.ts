import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { SINCE, UNTIL } from '../../../http/query.ts';
import { presentActivityEntry } from './presenter.ts';
import { organizationActivity } from './service.ts';

export function activityRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: activity');
  r.list(
    {
      path: '/v1/plan/activity/',
      summary: 'What changed across the boards, projects and goals you see, newest first: who (and which agent) did what',
      item: 'PlanActivityEntry',
      personQuery: { actor: 'me' },
      query: [
        { name: 'board', description: 'board uuid (one you cannot see matches nothing)' },
        { name: 'project', description: 'project uuid: its boards and the project itself' },
        { name: 'actor', description: '"me" or a user uuid: changes made with that person\'s credentials' },
        { name: 'object_kind', description: 'task, board, state, label, project, … (repeat or comma-separate)' },
        { name: 'start_date', description: 'YYYY-MM-DD (UTC), first day (alias since)' },
        { name: 'end_date', description: 'YYYY-MM-DD (UTC), last day (alias until)' },
      ],
    },
    async (call) => {
      const range = call.query.dateRange(SINCE, UNTIL);
      const filters = { board: call.query.uuid('board'), project: call.query.uuid('project'), actor: call.query.person('actor'), kinds: call.query.values('object_kind'), ...range };
      const { count, rows } = await organizationActivity(call, filters, call.page);
      return { count, results: rows.map(presentActivityEntry) };
    },
  );
}
