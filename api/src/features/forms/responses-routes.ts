import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, requirePerson } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest, queryLocalDays, queryText, queryUuid } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { presentFormResponse } from './presenter.ts';
import { deleteFormResponse, editFormResponse, getFormResponse, listFormResponses, submitFormResponse, transitionFormResponse } from './responses-service.ts';
import { formResponseSchema, transitionRequestSchema } from './schema.ts';
import type { FormResponseInput, TransitionRequest } from './schema.ts';

/** Form responses (CONTRACT §7): answer, read, edit, delete, and move along the form's states. */
export function formResponseRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);
  router.param('response', uuidParam);
  const now = () => deps.clock.now();

  router.get('/v1/forms/:uuid/responses/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const actor = actorOf(ctx);
    const range = queryLocalDays(ctx, actor.organization.timezone || 'UTC');
    const filters = { from: range.from?.toISOString(), to: range.to?.toISOString(), user: queryUuid(ctx, 'user'), state: queryText(ctx, 'state') || undefined };
    const { count, views } = await listFormResponses(deps.db, actor, ctx.params.uuid, filters, page);
    ctx.body = pageEnvelope(ctx, page, count, views.map(presentFormResponse), deps.config.publicUrl);
  });

  router.post('/v1/forms/:uuid/responses/', rateLimit('writes'), requirePerson, validateBody(formResponseSchema), async (ctx) => {
    const input = ctx.state.body as FormResponseInput;
    const view = await submitFormResponse(deps.db, actorOf(ctx), ctx.params.uuid, input, now());
    deps.delivery.kick();
    ctx.status = 201;
    ctx.body = presentFormResponse(view);
  });

  router.get('/v1/forms/:uuid/responses/:response/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentFormResponse(await getFormResponse(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.response));
  });

  router.patch('/v1/forms/:uuid/responses/:response/', rateLimit('writes'), requirePerson, validateBody(formResponseSchema), async (ctx) => {
    const input = ctx.state.body as FormResponseInput;
    const view = await editFormResponse(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.response, input, now());
    deps.delivery.kick();
    ctx.body = presentFormResponse(view);
  });

  router.delete('/v1/forms/:uuid/responses/:response/', rateLimit('writes'), requirePerson, noBody, async (ctx) => {
    await deleteFormResponse(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.response, now());
    deps.delivery.kick();
    ctx.status = 204;
  });

  router.post('/v1/forms/:uuid/responses/:response/transition/', rateLimit('writes'), requirePerson, validateBody(transitionRequestSchema), async (ctx) => {
    const input = ctx.state.body as TransitionRequest;
    const view = await transitionFormResponse(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.response, input, now());
    deps.delivery.kick();
    ctx.body = presentFormResponse(view);
  });

  return router;
}
