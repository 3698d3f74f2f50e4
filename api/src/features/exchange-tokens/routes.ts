import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest, queryChoice, queryUuid } from '../../http/query.ts';
import { AUDIT_ACTIONS } from '../../db/tables.ts';
import { presentAuditEvent, presentExchangeToken } from './presenter.ts';
import { exchangeToken, listAudit } from './service.ts';
import { exchangeTokenSchema } from './schema.ts';
import type { ExchangeTokenInput } from './schema.ts';

/**
 * POST /v1/exchange-token/: admins, in the authentication budget (CONTRACT §5: token exchange); presenting one is
 * http/auth.ts's. GET …/audit/: what was done on members' behalf (admins).
 */
export function exchangeTokenRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.post('/v1/exchange-token/', authenticate(), rateLimit('authentication'), allow('exchange_tokens.issue'), validateBody(exchangeTokenSchema), async (ctx) => {
    const issued = await exchangeToken(deps.db, actorOf(ctx), ctx.state.body as ExchangeTokenInput, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentExchangeToken(issued);
  });
  router.get('/v1/exchange-token/audit/', authenticate(), rateLimit('reads'), allow('exchange_tokens.read_audit'), async (ctx) => {
    const page = pageRequest(ctx);
    const filters = { action: queryChoice(ctx, 'action', AUDIT_ACTIONS), user: queryUuid(ctx, 'user') };
    const { count, rows, people } = await listAudit(deps.db, actorOf(ctx), filters, page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map((row) => presentAuditEvent(row, people)), deps.config.publicUrl);
  });

  return router;
}
