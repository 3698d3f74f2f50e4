import Router from '@koa/router';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { actorOf } from '../../http/auth.ts';
import { noBody, validateBody } from '../../http/validation.ts';
import { uuidParam } from '../../http/params.ts';
import { addQuestion, deleteQuestion, reorderQuestions, updateQuestion } from './questions-service.ts';
import { presentQuestion, presentQuestions } from './presenter.ts';
import { CHECKIN_BASES } from './routes.ts';
import { addQuestionSchema, reorderQuestionsSchema, updateQuestionSchema } from './schema.ts';
import type { AddQuestionInput, ReorderQuestionsInput, UpdateQuestionInput } from './schema.ts';

export function checkinQuestionRoutes(deps: Deps, { authenticate, rateLimit }: Middlewares): Router {
  const router = new Router();
  router.use(authenticate());
  router.param('uuid', uuidParam);
  router.param('question', uuidParam);

  for (const base of CHECKIN_BASES) {
    router.post(`${base}/:uuid/questions/`, rateLimit('writes'), validateBody(addQuestionSchema), async (ctx) => {
      const input = ctx.state.body as AddQuestionInput;
      const row = await addQuestion(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
      ctx.status = 201;
      ctx.body = presentQuestion(row);
    });

    router.put(`${base}/:uuid/questions/reorder/`, rateLimit('writes'), validateBody(reorderQuestionsSchema), async (ctx) => {
      const input = ctx.state.body as ReorderQuestionsInput;
      const rows = await reorderQuestions(deps.db, actorOf(ctx), ctx.params.uuid, input, deps.clock.now());
      ctx.body = presentQuestions(rows);
    });

    router.patch(`${base}/:uuid/questions/:question/`, rateLimit('writes'), validateBody(updateQuestionSchema), async (ctx) => {
      const input = ctx.state.body as UpdateQuestionInput;
      const row = await updateQuestion(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.question, input, deps.clock.now());
      ctx.body = presentQuestion(row);
    });

    router.delete(`${base}/:uuid/questions/:question/delete/`, rateLimit('writes'), noBody, async (ctx) => {
      await deleteQuestion(deps.db, actorOf(ctx), ctx.params.uuid, ctx.params.question, deps.clock.now());
      ctx.status = 204;
    });
  }
  return router;
}
