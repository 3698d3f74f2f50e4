import type { Context } from 'koa';
import type { AnyObjectSchema } from 'yup';
import { planActorId } from '../../auth/policy.ts';
import { lookupKey } from '../../db/idempotency-keys.ts';
import type { ClaimedKey, StoredAnswer } from '../../db/idempotency-keys.ts';
import { invalidFilter } from '../../lib/errors.ts';
import { actorOf } from '../auth.ts';
import type { Deps } from '../deps.ts';
import { pageRequest } from '../query.ts';
import { parseBody } from '../validation.ts';
import { agentNameInput, baseUrl, checkedParams, noBodyFields, send } from './answers.ts';
import type { Body, PlanHooks, Receiver, WriteCall } from './calls.ts';
import type { PlanOperation, UploadSpec } from './declarations.ts';
import { readUpload } from './files.ts';
import { parseIdempotencyKey, requestFingerprint } from './idempotency.ts';
import { PlanQuery } from './query.ts';
import { runWrite } from './write.ts';

/**
 * An upload runs its steps in another order than a JSON write: the file is streamed to storage first (no
 * transaction is open while bytes arrive), so that the Idempotency-Key's fingerprint can include the file's
 * digest; then the key is claimed (a replay discards the new copy) and the handler runs in the write's
 * transaction. Whatever refuses the request after the file was stored discards it.
 */
export function uploadRoute<S extends AnyObjectSchema | undefined, F extends { digest: string }, R>(
  operation: PlanOperation,
  spec: UploadSpec & { fields?: S },
  receiver: Receiver<F>,
  handler: (call: WriteCall<Body<S>> & { file: F }) => Promise<R>,
) {
  return async (ctx: Context, deps: Deps, hooks: PlanHooks): Promise<void> => {
    const actor = actorOf(ctx);
    const now = deps.clock.now();
    const query = new PlanQuery(ctx, actor.user.uuid);
    if (query.flag('dry_run')) throw invalidFilter('dry_run', 'This operation has no dry run: it is not destructive.');
    const key = parseIdempotencyKey(ctx.headers['idempotency-key']);
    const agentName = await hooks.resolveAgentName(deps.db, actor, agentNameInput(ctx));
    const params = checkedParams(ctx, operation.keyParams);
    const base = { db: deps.db, actor, now, deps, params, query, page: pageRequest(ctx), headers: ctx.headers, baseUrl: baseUrl(ctx, deps), body: {} as Record<string, never> };
    const { fields, file } = await readUpload(ctx, {
      maxBytes: spec.maxBytes,
      tooLarge: receiver.tooLarge,
      receive: (stream, incoming) => receiver.receive(base, stream, incoming),
      discard: (stored) => receiver.discard(base, stored),
    });
    let claimed: ClaimedKey | null = null;
    let answer: StoredAnswer & { replayed?: true };
    try {
      const body = (spec.fields ? await parseBody(spec.fields, fields) : noBodyFields(fields)) as Body<S>;
      if (key !== null) {
        const fingerprint = requestFingerprint(ctx.method, ctx.url, { fields, file: file.digest });
        const claim = await lookupKey(deps.db, { actorId: planActorId(actor), key, fingerprint, organizationUuid: actor.organization.uuid }, now);
        if (claim.kind === 'replay') {
          await receiver.discard(base, file);
          return send(ctx, claim.answer, true);
        }
        claimed = claim.claim;
      }
      answer = await runWrite(
        deps.db,
        { actor, now, agentName, dryRun: false, claimed, events: hooks.events, afterEvents: () => deps.delivery.kick() },
        (unit, shape) =>
          handler({
            ...unit, deps, params, query, body, file, prepared: undefined, headers: ctx.headers, baseUrl: base.baseUrl,
            header: (name, value) => void (shape.headers[name] = value),
            status: (code) => void (shape.status = code),
          }),
        operation.status,
      );
    } catch (err) {
      await receiver.discard(base, file);
      throw err;
    }
    // A twin of this request stored the key's answer first: this copy of the file is not kept.
    if (answer.replayed) await receiver.discard(base, file);
    send(ctx, answer, answer.replayed);
  };
}
