import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { SINCE, UNTIL } from '../../../http/query.ts';
import { SCOPE_DOCS } from '../../../http/plan/openapi.ts';
import { presentSpan } from './presenter.ts';
import { timeline } from './service.ts';

export function timelineRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: timeline');
  r.list(
    {
      path: '/v1/plan/timeline/',
      summary: 'Live tasks with a start or due date whose span of days overlaps the range, earliest first',
      item: 'PlanTimelineItem',
      personQuery: { owner: 'me' },
      query: [
        ...SCOPE_DOCS,
        { name: 'owner', description: '"me" or a user uuid' },
        { name: 'start_date', description: 'YYYY-MM-DD: spans ending on or after this day (alias since)' },
        { name: 'end_date', description: 'YYYY-MM-DD: spans starting on or before this day (alias until)' },
      ],
    },
    async (call) => {
      const filters = { board: call.query.uuid('board'), project: call.query.uuid('project'), owner: call.query.person('owner'), ...call.query.dateRange(SINCE, UNTIL) };
      const { count, tasks } = await timeline(call, filters, call.page);
      return { count, results: tasks.map(presentSpan) };
    },
  );
}
