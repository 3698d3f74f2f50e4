import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { invalidFilter } from '../../lib/errors.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { pageEnvelope } from '../../http/pagination.ts';
import { pageRequest, queryBoolean, queryChoice, querySearch, queryText, queryUuids } from '../../http/query.ts';
import { uuidParam } from '../../http/params.ts';
import { presentQuestion, presentQuestions } from '../checkins/presenter.ts';
import { addQuestionSchema, reorderQuestionsSchema, updateQuestionSchema } from '../checkins/schema.ts';
import type { AddQuestionInput, ReorderQuestionsInput, UpdateQuestionInput } from '../checkins/schema.ts';
import { addFormQuestion, deleteFormQuestion, reorderFormQuestions, updateFormQuestion } from './questions-service.ts';
import { presentForm, presentOwner } from './presenter.ts';
import { archiveForm, createForm, formDetail, formOwners, listForms, updateForm } from './service.ts';
import { FORM_FILTERS, createFormSchema, updateFormSchema } from './schema.ts';
import type { CreateFormInput, UpdateFormInput } from './schema.ts';

const ORDER_FIELDS: Record<string, string> = { name: 'name', created_at: 'created_at', updated_at: 'updated_at' };

/** Forms (CONTRACT §7, §12): the list with its filters, form owners, CRUD and questions (owners and admins edit). */
export function formRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);
  router.param('question', uuidParam);

  router.get('/v1/forms/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const actor = actorOf(ctx);
    const include = (queryText(ctx, 'include') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (include.some((token) => token !== 'questions')) throw invalidFilter('include', 'include takes: questions.');
    const owner = queryText(ctx, 'owner');
    if (owner !== undefined && owner !== '' && owner !== 'me') throw invalidFilter('owner', 'owner takes: me (or use owner_user_ids).');
    const ordering = queryText(ctx, 'ordering');
    const orderField = queryChoice(ctx, 'order', Object.keys(ORDER_FIELDS)) ?? (ordering ? ordering.replace(/^-/, '') : 'created_at');
    if (!Object.hasOwn(ORDER_FIELDS, orderField)) throw invalidFilter('ordering', `ordering must be one of: ${Object.keys(ORDER_FIELDS).join(', ')} (prefix - for descending).`);
    const ascending = queryBoolean(ctx, 'is_ascend') ?? (ordering ? !ordering.startsWith('-') : orderField === 'name');
    const ownerUuids = [...(owner === 'me' ? [actor.user.uuid] : []), ...(queryUuids(ctx, 'owner_user_ids', 50) ?? [])];
    const filters = {
      filter: queryChoice(ctx, 'filter', FORM_FILTERS) ?? 'all',
      includeArchived: queryBoolean(ctx, 'include_archived') === true,
      ownerUuids: ownerUuids.length ? ownerUuids : undefined,
      search: querySearch(ctx),
      includeQuestions: include.includes('questions'),
      order: { column: ORDER_FIELDS[orderField], direction: ascending ? ('asc' as const) : ('desc' as const) },
    };
    const { count, items } = await listForms(deps.db, actor, filters, page);
    ctx.body = pageEnvelope(ctx, page, count, items.map(presentForm), deps.config.publicUrl);
  });

  router.get('/v1/forms/form-owners/', rateLimit('reads'), async (ctx) => {
    const page = pageRequest(ctx);
    const { count, rows } = await formOwners(deps.db, actorOf(ctx), page);
    ctx.body = pageEnvelope(ctx, page, count, rows.map(presentOwner), deps.config.publicUrl);
  });

  router.post('/v1/forms/create/', rateLimit('writes'), validateBody(createFormSchema), async (ctx) => {
    const detail = await createForm(deps.db, actorOf(ctx), ctx.state.body as CreateFormInput, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentForm(detail);
  });

  router.get('/v1/forms/:uuid/', rateLimit('reads'), async (ctx) => {
    ctx.body = presentForm(await formDetail(deps.db, actorOf(ctx), ctx.params.uuid));
  });

  router.patch('/v1/forms/:uuid/config/', rateLimit('writes'), validateBody(updateFormSchema), async (ctx) => {
    const input = ctx.state.body as UpdateFormInput;
    ctx.body = presentForm(await updateForm(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now()));
  });

  router.delete('/v1/forms/:uuid/archive/', rateLimit('writes'), noBody, async (ctx) => {
    await archiveForm(deps.db, actorOf(ctx), ctx.params.uuid, deps.clock.now());
    ctx.status = 204;
  });

  router.post('/v1/forms/:uuid/questions/', rateLimit('writes'), validateBody(addQuestionSchema), async (ctx) => {
    const input = ctx.state.body as AddQuestionInput;
    const row = await addFormQuestion(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
    ctx.status = 201;
    ctx.body = presentQuestion(row);
  });

  router.put('/v1/forms/:uuid/questions/reorder/', rateLimit('writes'), validateBody(reorderQuestionsSchema), async (ctx) => {
    const input = ctx.state.body as ReorderQuestionsInput;
    const rows = await reorderFormQuestions(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
    ctx.body = presentQuestions(rows);
  });

  router.patch('/v1/forms/:uuid/questions/:question/', rateLimit('writes'), validateBody(updateQuestionSchema), async (ctx) => {
    const input = ctx.state.body as UpdateQuestionInput;
    const row = await updateFormQuestion(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.question, input, deps.clock.now());
    ctx.body = presentQuestion(row);
  });

  router.delete('/v1/forms/:uuid/questions/:question/delete/', rateLimit('writes'), noBody, async (ctx) => {
    await deleteFormQuestion(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.question, deps.clock.now());
    ctx.status = 204;
  });

  return router;
}
