import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { FREE_PLAN_AGENT_REPORTS_DAILY_CAP, createReport, listReports } from './reports-service.ts';
import { presentReport, presentReportAnswer } from './presenter.ts';
import { reportSchema } from './schema.ts';
import type { ReportInput } from './schema.ts';
import { queryText } from '../../http/query.ts';

/** Agent reports (CONTRACT §6): on the free-plan CLI Bearer allow-list, 50 per organization per UTC day. */
export function agentReportRoutes(deps: Deps, { authenticate, rateLimit, freePlanDailyCap }: Middlewares): Router {
  const router = new Router();

  router.post(
    '/v1/agent-reports/',
    authenticate(),
    rateLimit('agent'),
    validateBody(reportSchema),
    freePlanDailyCap('agent-reports', FREE_PLAN_AGENT_REPORTS_DAILY_CAP, { credential: 'bearer' }),
    async (ctx) => {
      ctx.status = 201;
      const [actor, input, now] = [actorOf(ctx), ctx.state.body as ReportInput, deps.clock.now()];
      ctx.body = presentReportAnswer(await createReport(deps.writes, actor, input, now));
    },
  );

  router.get('/v1/agent-reports/', authenticate(), rateLimit('agent'), async (ctx) => {
    const page = pageRequest(ctx);
    const { count, rows } = await listReports(deps.db, actorOf(ctx), queryText(ctx, 'agent_name') ?? null, page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map((row) => presentReport(row, row.agent_name)), deps.config.publicUrl);
  });

  return router;
}
