import type { Actor } from '../../../auth/credentials.ts';
import type { Executor, Trx } from '../../../db/connection.ts';
import type { ChangeLog } from '../../../outbox/plan-changes.ts';

/** What a Plan service reads with: the database (or the caller's transaction), who is calling, and now. */
export interface PlanRead {
  db: Executor;
  actor: Actor;
  now: Date;
}

/**
 * What a Plan service writes with: the operation's one transaction, the change log bound to it, and the agent
 * the change is attributed to (the Plan's route registrar, http/plan/, builds it). Services record every change
 * they make through `changes`; they never commit, roll back or see the HTTP request.
 */
export interface PlanWrite extends PlanRead {
  db: Trx;
  changes: ChangeLog;
  agentName: string | null;
  /** True when the operation runs to be rolled back (`?dry_run=true`); services rarely need to know. */
  dryRun: boolean;
}
