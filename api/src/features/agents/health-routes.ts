import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { ValidationFailed } from '../../lib/errors.ts';
import { validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest } from '../../http/query.ts';
import { listAgentHealth, readHealth, recordHealth } from './health-service.ts';
import { presentAgentStatus, presentHealthCheck, presentHealthReading } from './presenter.ts';
import { healthSchema } from './schema.ts';
import type { HealthInput } from './schema.ts';
import { queryText } from '../../http/query.ts';

/** Agent health (CONTRACT §6, §12). Only GET /v1/agent/health/ is on the free-plan CLI Bearer allow-list. */
export function agentHealthRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();

  router.post('/v1/agent-health/', authenticate(), rateLimit('agent'), validateBody(healthSchema), async (ctx) => {
    const [actor, input, now] = [actorOf(ctx), ctx.state.body as HealthInput, deps.clock.now()];
    ctx.body = presentHealthCheck(await recordHealth(deps.writes, actor, input, now));
  });

  router.get('/v1/agent-health/', authenticate(), rateLimit('agent'), async (ctx) => {
    const agentName = queryText(ctx, 'agent_name');
    if (agentName === undefined || agentName === '') throw new ValidationFailed({ agent_name: ['This query parameter is required.'] });
    ctx.body = presentHealthReading(await readHealth(deps.db, actorOf(ctx), agentName, deps.clock.now()));
  });

  router.get('/v1/agent/health/', authenticate(), rateLimit('agent'), async (ctx) => {
    const page = pageRequest(ctx);
    const { count, rows } = await listAgentHealth(deps.db, actorOf(ctx), page, deps.clock.now());
    ctx.body = pageEnvelope(ctx, page, count, rows.map(presentAgentStatus), deps.config.publicUrl);
  });

  return router;
}
