import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf, allow } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest, queryBoolean, queryChoice, querySearch } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { presentQueued, presentRun, presentWorkflow } from './presenter.ts';
import { createWorkflow, deleteWorkflow, getRun, getWorkflow, listRuns, listWorkflows, triggerWorkflow, updateWorkflow } from './service.ts';
import { TRIGGER_TYPES, createWorkflowSchema, triggerSchema, updateWorkflowSchema } from './schema.ts';
import type { CreateWorkflowInput, UpdateWorkflowInput } from './schema.ts';

/** Workflows (CONTRACT §7): everyone reads; admins define; POST …/trigger/ counts against the workflow-trigger budget. */
export function workflowRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);
  router.param('run', uuidParam);
  const policy = { allowPrivate: deps.config.allowPrivateWebhooks, resolve: deps.outbound.resolve };

  router.get('/v1/workflows/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const filters = { triggerType: queryChoice(ctx, 'trigger_type', TRIGGER_TYPES), active: queryBoolean(ctx, 'active'), search: querySearch(ctx) };
    const { count, rows } = await listWorkflows(deps.db, actorOf(ctx), filters, page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map((row) => presentWorkflow(row)), deps.config.publicUrl);
  });

  router.post('/v1/workflows/', rateLimit('writes'), allow('workflows.manage'), validateBody(createWorkflowSchema), async (ctx) => {
    const input = ctx.state.body as CreateWorkflowInput;
    const { row, signingSecret } = await createWorkflow(deps.db, deps.secretBox, policy, actorOf(ctx), input, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentWorkflow(row, signingSecret);
  });

  router.get('/v1/workflows/:uuid/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentWorkflow(await getWorkflow(deps.db, actorOf(ctx), ctx.params.uuid));
  });

  router.patch('/v1/workflows/:uuid/', rateLimit('writes'), allow('workflows.manage'), validateBody(updateWorkflowSchema), async (ctx) => {
    const input = ctx.state.body as UpdateWorkflowInput;
    ctx.body = presentWorkflow(await updateWorkflow(deps.db, deps.secretBox, policy, actorOf(ctx), ctx.params.uuid, input, deps.clock.now()));
  });

  router.delete('/v1/workflows/:uuid/', rateLimit('writes'), allow('workflows.manage'), noBody, async (ctx) => {
    await deleteWorkflow(deps.db, actorOf(ctx), ctx.params.uuid, deps.clock.now());
    ctx.status = 204;
  });

  router.post('/v1/workflows/:uuid/trigger/', rateLimit('workflow_triggers'), validateBody(triggerSchema), async (ctx) => {
    const { payload } = ctx.state.body as { payload?: Record<string, unknown> };
    const run = await triggerWorkflow(deps.db, actorOf(ctx), ctx.params.uuid, payload, deps.clock.now());
    deps.delivery.kick();
    ctx.status = 202;
    ctx.body = presentQueued(run);
  });

  router.get('/v1/workflows/:uuid/runs/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const { count, views } = await listRuns(deps.db, actorOf(ctx), ctx.params.uuid, page);
    ctx.body = pageEnvelope(ctx, page, count, views.map(presentRun), deps.config.publicUrl);
  });

  router.get('/v1/workflows/:uuid/runs/:run/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentRun(await getRun(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.run));
  });

  return router;
}
