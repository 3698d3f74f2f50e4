import type { Actor } from '../auth/credentials.ts';
import type { Executor } from '../db/connection.ts';
import { firstOf, insertRow } from '../db/raw-sql.ts';
import { writeJson } from '../lib/json.ts';
import type { EventReceivers } from './events.ts';

export type ObjectKind =
  | 'board' | 'board_member' | 'state' | 'label' | 'task' | 'task_relation' | 'task_participant'
  | 'project' | 'project_member' | 'milestone' | 'project_update' | 'goal'
  | 'comment' | 'attachment' | 'view' | 'reaction' | 'notification_route' | 'report_schedule';
export type ChangeKind = 'created' | 'updated' | 'moved' | 'archived' | 'restored' | 'deleted';

export interface Change {
  kind: ObjectKind;
  uuid: string;
  change: ChangeKind;
  /**
   * The board whose stream numbers this change; null for organization-level objects (projects, goals) and for a
   * board's own deletion (its counter goes with it).
   */
  board: string | null;
  project?: string | null;
  /**
   * The task the change belongs to, for the task's events and activity: a task's own changes (the default for
   * kind `task`) and those of what hangs on it (relations, participants, comments, attachments). Null keeps a
   * task's change out of its own history (the first of a board move's two rows).
   */
  task?: string | null;
  /** False: no `tasks.*` organization event (the second change of a board move, on the target board's stream). */
  event?: boolean;
  /** Fields the change touched (empty for created, archived, restored, deleted). */
  fields?: string[];
  /** The object as the API presents it after the change; null for `deleted`. */
  snapshot: unknown;
}

export interface RecordedChange extends Change {
  /** Its number in its stream; 0 in a dry run, which numbers nothing. */
  seq: number;
}

/** Object kinds whose changes are organization events (CONTRACT §7: `tasks.created|updated|moved|archived|…`). */
const EVENT_PREFIX: Partial<Record<ObjectKind, string>> = { task: 'tasks' };

/**
 * The one writer of `plan_changes` (the Plan's change log). Built per write around the operation's transaction, so a
 * change is logged exactly when it commits (a rolled-back operation, a dry run included, leaves no row) and each
 * row names the person whose credential made it and the agent acting for them (X-Service-Agent-Name).
 *
 * Numbering: a board's changes take their `seq` from `plan_boards.change_seq`, organization-level ones from
 * `plan_organizations.change_seq`, each incremented by an UPDATE … RETURNING in the writing transaction. The row
 * lock serializes one stream's writers until commit, so a reader that has seen seq N never later finds a new
 * row below N in that stream (a global auto-increment does not promise that on PostgreSQL).
 *
 * A dry run's change log keeps its changes in memory only (they are what the dry run answers): no number taken,
 * so no stream locked by it, no row, no event.
 */
export class ChangeLog {
  readonly #db: Executor;
  readonly #actor: Actor;
  readonly #agentName: string | null;
  readonly #now: Date;
  readonly #events: EventReceivers;
  readonly #dryRun: boolean;
  readonly recorded: RecordedChange[] = [];
  /** How many organization events this write handed to their receivers (the caller kicks the delivery worker). */
  eventsRecorded = 0;
  /** Whether a receiver wants an event, asked once per event name per write (a migration moves thousands of tasks). */
  readonly #wanted = new Map<string, boolean>();

  /** `events`: the organization's event receivers, webhook subscriptions and event workflows (the features hand them over). */
  constructor(db: Executor, actor: Actor, agentName: string | null, now: Date, events: EventReceivers, options: { dryRun?: boolean } = {}) {
    this.#db = db;
    this.#actor = actor;
    this.#agentName = agentName;
    this.#now = now;
    this.#events = events;
    this.#dryRun = options.dryRun ?? false;
  }

  async record(change: Change): Promise<RecordedChange> {
    if (this.#dryRun) return this.#keep({ ...change, seq: 0 });
    const seq = change.board === null ? await this.#nextOrganizationSeq() : await this.#nextBoardSeq(change.board);
    const organizationUuid = this.#actor.organization.uuid;
    // Raw SQL, as the sequence: every Plan write runs both (db/raw-sql.ts).
    const insert = insertRow('plan_changes', {
      organization_uuid: organizationUuid,
      board_uuid: change.board,
      project_uuid: change.project ?? null,
      seq,
      object_kind: change.kind,
      object_uuid: change.uuid,
      change_kind: change.change,
      changed_fields: writeJson(change.fields ?? []),
      snapshot: change.change === 'deleted' || change.snapshot === undefined ? null : writeJson(change.snapshot),
      actor_uuid: this.#actor.user.uuid,
      credential_uuid: this.#actor.credential.uuid,
      agent_name: this.#agentName,
      created_at: this.#now.toISOString(),
      task_uuid: change.task !== undefined ? change.task : change.kind === 'task' ? change.uuid : null,
    });
    await this.#db.raw(insert.sql, insert.bindings);
    const prefix = change.event === false ? undefined : EVENT_PREFIX[change.kind];
    if (prefix && (await this.#isWanted(`${prefix}.${change.change}`))) {
      await this.#events.record(
        this.#db,
        {
          organizationUuid,
          event: `${prefix}.${change.change}`,
          payload: {
            object_uuid: change.uuid,
            board_uuid: change.board,
            project_uuid: change.project ?? null,
            changed_fields: change.fields ?? [],
            actor: { uuid: this.#actor.user.uuid },
            agent_name: this.#agentName,
            [change.kind]: change.snapshot ?? null,
          },
        },
        this.#now,
      );
      this.eventsRecorded++;
    }
    return this.#keep({ ...change, seq });
  }

  #keep(recorded: RecordedChange): RecordedChange {
    this.recorded.push(recorded);
    return recorded;
  }

  async #isWanted(event: string): Promise<boolean> {
    let wanted = this.#wanted.get(event);
    if (wanted === undefined) {
      wanted = await this.#events.wanted(this.#db, this.#actor.organization.uuid, event);
      this.#wanted.set(event, wanted);
    }
    return wanted;
  }

  async #nextBoardSeq(boardUuid: string): Promise<number> {
    const row = await firstOf<{ change_seq: number | string }>(this.#db, 'update plan_boards set change_seq = change_seq + 1 where uuid = ? returning change_seq', [boardUuid]);
    if (!row) throw new Error(`change log: no board ${boardUuid}`);
    return Number(row.change_seq);
  }

  async #nextOrganizationSeq(): Promise<number> {
    const [row] = await this.#db('plan_organizations')
      .insert({ organization_uuid: this.#actor.organization.uuid, change_seq: 1, created_at: this.#now.toISOString() })
      .onConflict('organization_uuid')
      .merge({ change_seq: this.#db.raw('?? + 1', ['plan_organizations.change_seq']) })
      .returning('change_seq');
    return Number(row.change_seq);
  }
}

/** Takes the organization's Plan row lock for the rest of the transaction (serializes the plan-ceiling checks). */
export async function lockOrganization(db: Executor, organizationUuid: string, now: Date): Promise<void> {
  await db('plan_organizations')
    .insert({ organization_uuid: organizationUuid, change_seq: 0, created_at: now.toISOString() })
    .onConflict('organization_uuid')
    .merge({ change_seq: db.raw('??', ['plan_organizations.change_seq']) });
}

/**
 * Deletes the change-log rows written before `cutoff` (the delta feed's window), a batch at a time so a large
 * backlog never holds the database in one long statement. Returns how many went.
 */
export async function pruneChanges(db: Executor, cutoff: Date, batch = 5000): Promise<number> {
  let pruned = 0;
  for (;;) {
    const ids = db('plan_changes').select('id').where('created_at', '<', cutoff.toISOString()).orderBy('id').limit(batch);
    // PostgreSQL and SQLite both take a subquery with LIMIT inside IN (MySQL would not).
    const deleted = await db('plan_changes').whereIn('id', ids).delete();
    pruned += deleted;
    if (deleted < batch) return pruned;
  }
}
