import type { Executor, Trx } from '../../../db/connection.ts';
import type { Deps } from '../../../deps.ts';
import type { PageRequest } from '../../../http/pagination.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { ChangeLog } from './changes.ts';
import type { PlanQuery } from './query.ts';

/** What a Plan service reads with: the database (or the caller's transaction), who is calling, and now. */
export interface PlanRead {
  db: Executor;
  actor: Actor;
  now: Date;
  deps: Deps;
}

/**
 * What a Plan service writes with: the operation's one transaction, the change log bound to it, and the agent
 * the change is attributed to. Services record every change they make through `changes`; they never commit,
 * roll back or touch the HTTP request.
 */
export interface PlanWrite extends PlanRead {
  db: Trx;
  changes: ChangeLog;
  agentName: string | null;
  /** True when the operation runs to be rolled back (`?dry_run=true`); services rarely need to know. */
  dryRun: boolean;
}

export type Params = Record<string, string>;

export interface ReadCall extends PlanRead {
  params: Params;
  query: PlanQuery;
  page: PageRequest;
}

export interface WriteCall<B> extends PlanWrite {
  params: Params;
  query: PlanQuery;
  body: B;
  /** An answer header (Location and ETag are stored with an Idempotency-Key and replayed). */
  header(name: string, value: string): void;
  /** Answers another success status than the route's (POST …/members/ for someone already a member: 200). */
  status(code: number): void;
}
