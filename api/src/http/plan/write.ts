import type { Actor } from '../../auth/credentials.ts';
import type { Db, Trx } from '../../db/connection.ts';
import { KEY_REFUSALS, StoredReplay, holdKey, storeAnswer } from '../../db/idempotency-keys.ts';
import type { ClaimedKey, StoredAnswer } from '../../db/idempotency-keys.ts';
import { ApiError, ValidationFailed } from '../../lib/errors.ts';
import type { EventReceivers } from '../../outbox/events.ts';
import { errorBody } from '../errors.ts';
import { ChangeLog } from '../../outbox/plan-changes.ts';

/** An unexpected error frees an Idempotency-Key; so do these refusals, whose remedy is to retry with the same key. */
const RETRY_WITH_SAME_KEY = new Set(['identifier_allocation_failed']);

class DryRunRollback extends Error {
  readonly answer: StoredAnswer;
  constructor(answer: StoredAnswer) {
    super('dry run');
    this.answer = answer;
  }
}

/** Fields of a write's result a dry run's answer also shows at its top (beside dry_run, status, result, changes). */
export type DryRunPreview = (result: Record<string, unknown>) => Record<string, unknown>;

/** What one write's transaction is handed: the parts of a service's PlanWrite. */
export interface WriteUnit {
  db: Trx;
  actor: Actor;
  now: Date;
  changes: ChangeLog;
  agentName: string | null;
  dryRun: boolean;
}

export interface WriteRun {
  actor: Actor;
  now: Date;
  agentName: string | null;
  dryRun: boolean;
  /** The Idempotency-Key this request holds, if any (never for a dry run). */
  claimed: ClaimedKey | null;
  /** The organization's event receivers (webhook subscriptions, event workflows). */
  events: EventReceivers;
  /** Called after a commit that recorded organization events (their deliveries and workflow runs wait in the outbox). */
  afterEvents?: () => void;
}

/**
 * Runs one Plan write as one unit: a transaction handed to `work` (with the change log bound to it) that first
 * holds the request's Idempotency-Key (db/idempotency-keys.ts `holdKey`) and stores its answer under it, so an
 * acknowledged write always has its answer, and a crash before the commit leaves neither and frees the key. A dry
 * run builds its answer (what the operation would have answered, and the changes it recorded, kept in memory by its
 * change log) and rolls everything back. A refusal (4xx) is then stored as the key's answer. `replayed`: the key's answer was stored by a twin of
 * this request that committed first.
 */
export async function runWrite(
  db: Db,
  run: WriteRun,
  work: (unit: WriteUnit, answer: { headers: Record<string, string>; status: number }) => Promise<unknown>,
  successStatus: number,
  preview?: DryRunPreview,
): Promise<StoredAnswer & { replayed?: true }> {
  try {
    let eventsRecorded = 0;
    const committed = await db.transaction(async (trx) => {
      if (run.claimed) await holdKey(trx, run.claimed, run.now);
      const changes = new ChangeLog(trx, run.actor, run.agentName, run.now, run.events, { dryRun: run.dryRun });
      const shape = { headers: {} as Record<string, string>, status: successStatus };
      const result = await work({ db: trx, actor: run.actor, now: run.now, changes, agentName: run.agentName, dryRun: run.dryRun }, shape);
      const answer: StoredAnswer = { status: shape.status, headers: shape.headers, body: shape.status === 204 ? undefined : result };
      if (run.dryRun) {
        const changed = changes.recorded.map((c) => ({ object_kind: c.kind, object_uuid: c.uuid, change_kind: c.change, changed_fields: c.fields ?? [] }));
        const shown = preview && result !== null && typeof result === 'object' ? preview(result as Record<string, unknown>) : {};
        throw new DryRunRollback({ status: 200, headers: {}, body: { ...shown, dry_run: true, status: shape.status, result: result ?? null, changes: changed } });
      }
      if (run.claimed) await storeAnswer(trx, run.claimed, answer, run.now);
      eventsRecorded = changes.eventsRecorded;
      return answer;
    });
    if (eventsRecorded > 0) run.afterEvents?.();
    return committed;
  } catch (err) {
    if (err instanceof DryRunRollback) return err.answer;
    if (err instanceof StoredReplay) return { ...err.answer, replayed: true };
    if (run.claimed) await settleKey(db, run.claimed, err, run.now);
    throw err;
  }
}

/** After a failure before or during the operation: a refusal becomes the key's answer; anything else leaves the key free. */
export async function settleKey(db: Db, claimed: ClaimedKey, err: unknown, now: Date): Promise<void> {
  const refusal = refusalAnswer(err);
  if (refusal) await storeAnswer(db, claimed, refusal, now);
}

/** A refusal as the answer stored under an Idempotency-Key (4xx only; 429 and transient codes are not kept). */
function refusalAnswer(err: unknown): StoredAnswer | null {
  if (err instanceof ValidationFailed) return { status: 400, headers: {}, body: err.fields };
  if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429 && !RETRY_WITH_SAME_KEY.has(err.code) && !KEY_REFUSALS.has(err.code)) {
    return { status: err.status, headers: err.headers ?? {}, body: errorBody(err) };
  }
  return null;
}
