import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { SINCE, UNTIL } from '../../../http/query.ts';
import { SCOPE_DOCS } from '../../../http/plan/openapi.ts';
import { presentPulse } from './presenter.ts';
import { defaultPeriod, pulse } from './service.ts';

export function pulseRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: pulse');
  r.read(
    {
      path: '/v1/plan/pulse/',
      summary: 'Counts per state and per owner over a period: tasks now, open, created, completed, changed and archived within it',
      response: 'PlanPulse',
      query: [
        ...SCOPE_DOCS,
        { name: 'start_date', description: 'YYYY-MM-DD (UTC), first day (alias since); default 6 days before end_date' },
        { name: 'end_date', description: 'YYYY-MM-DD (UTC), last day (alias until); default today' },
      ],
    },
    async (call) => {
      const period = defaultPeriod(call.now, call.query.dateRange(SINCE, UNTIL));
      return presentPulse(await pulse(call, { board: call.query.uuid('board'), project: call.query.uuid('project') }, period));
    },
  );
}
