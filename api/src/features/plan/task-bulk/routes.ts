import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { errorBody } from '../../../http/errors.ts';
import { parseBody } from '../../../http/validation.ts';
import { ApiError, ValidationFailed, badRequest } from '../../../lib/errors.ts';
import { runBulk } from './service.ts';
import { BULK_LIMIT, BULK_OPERATIONS, BULK_OPERATION_ALIASES, ITEM_SCHEMAS, bulkSchema } from './schema.ts';
import type { BulkOperation } from './schema.ts';

/** An item's refusal as the single-task call would have answered it: status and body. */
function refusal(err: unknown): { status: number; error: unknown } {
  if (err instanceof ValidationFailed) return { status: 400, error: err.fields };
  const known = err as ApiError;
  return { status: known.status, error: errorBody(known) };
}

export function taskBulkRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: tasks');
  r.write(
    {
      method: 'post',
      path: '/v1/plan/tasks/bulk/',
      summary: 'Change or create up to 100 tasks in one call: update, move, archive, restore, label or create (on board); a result per item (atomic: all or nothing)',
      description: 'Each item answers what the single-task call would (`status`, and `task` or `error`); a refused item leaves the others. 400 `too_many_items` past 100 items; an unknown operation answers 400 `invalid_relation`.',
      body: bulkSchema,
      ceiling: 'bulk',
      idempotencyRequired: true,
      destructive: true,
      response: 'PlanTaskBulkResult',
      // A dry run also lists, at its top, the items the real call would refuse (what the DailyBot client reads).
      preview: (result) => ({ refused: (result.results as { status: number }[]).filter((item) => item.status !== 200) }),
    },
    async (call) => {
      const operation = Object.hasOwn(BULK_OPERATION_ALIASES, call.body.operation) ? BULK_OPERATION_ALIASES[call.body.operation] : call.body.operation;
      if (!(BULK_OPERATIONS as readonly string[]).includes(operation)) {
        throw badRequest('invalid_relation', `Unknown bulk operation ${operation.slice(0, 40)}; use one of: ${BULK_OPERATIONS.join(', ')}.`, { parameter: 'operation' });
      }
      const items = call.body.items;
      if (items.length > BULK_LIMIT) throw badRequest('too_many_items', `A bulk call takes at most ${BULK_LIMIT} items.`, { limit: BULK_LIMIT, count: items.length });
      if (items.length === 0) throw new ValidationFailed({ items: ['Ensure this list has at least 1 items.'] });
      if (operation === 'create' && !call.body.board) throw new ValidationFailed({ board: ['This field is required.'] });
      const checked = await Promise.all(
        items.map(async (item, index) => {
          try {
            const body = (await parseBody(ITEM_SCHEMAS[operation as BulkOperation], item)) as Record<string, unknown>;
            if (operation !== 'create') return { index, body };
            return { index, body: { ...body, board: call.body.board } };
          } catch (err) {
            if (err instanceof ValidationFailed || err instanceof ApiError) return { index, invalid: err };
            throw err;
          }
        }),
      );
      const atomic = call.body.atomic === true;
      const { outcomes, committed } = await runBulk(call, operation as BulkOperation, checked, atomic, { lockTimeoutMs: call.deps.config.planLockTimeoutMs });
      const results = outcomes.map((outcome) =>
        'task' in outcome ? { index: outcome.index, status: 200, task: outcome.task } : { index: outcome.index, ...refusal(outcome.error) },
      );
      const failed = results.filter((result) => result.status !== 200).length;
      return { operation, atomic, committed, succeeded: committed ? results.length - failed : 0, failed, results };
    },
  );
}
