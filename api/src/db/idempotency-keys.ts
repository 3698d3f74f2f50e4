import { isSqlite } from './connection.ts';
import { firstOf, insertRow } from './raw-sql.ts';
import type { Db, Executor } from './connection.ts';
import { conflict } from '../lib/errors.ts';
import { readJson, writeJson } from '../lib/json.ts';
import type { IdempotencyKeyRow } from './tables.ts';

/**
 * Stored answers of Plan writes sent with an Idempotency-Key (table plan_idempotency_keys): per actor and key, the
 * answer to replay. The claim of a key while its first request runs is tied to that request's transaction, never
 * stored: on PostgreSQL a transaction-scoped advisory lock on the key (a second request with the key meanwhile
 * answers 409 `idempotency_in_progress`), on SQLite the one connection, which runs the writes one at a time. A
 * process killed mid-request loses its transaction and with it the claim, so the retry runs at once (a stored
 * `running` claim used to block it for up to 120 seconds). The answer is written in the operation's transaction.
 */

/** The spec's Limits: a key is 8 to 128 characters; kept 24 hours. */
export const KEY_MIN = 8;
export const KEY_MAX = 128;
export const KEEP_MS = 24 * 3_600_000;

/** Answer headers worth replaying with the stored body. */
const REPLAYED_HEADERS = ['location', 'etag'];

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface ClaimedKey {
  actorId: string;
  key: string;
  fingerprint: string;
  organizationUuid: string;
}

export type Claim = { kind: 'claimed'; claim: ClaimedKey } | { kind: 'replay'; answer: StoredAnswer };

function answerOf(row: IdempotencyKeyRow): StoredAnswer {
  return { status: Number(row.status), headers: readJson<Record<string, string>>(row.headers, {}), body: readJson<unknown>(row.body, null) };
}

/** 409s about the key itself: never stored as the key's answer. */
export const KEY_REFUSALS = new Set(['idempotency_key_payload_mismatch', 'idempotency_in_progress']);
const mismatch = () => conflict('idempotency_key_payload_mismatch', 'This Idempotency-Key was already used with a different request body.');
const inProgress = () => conflict('idempotency_in_progress', 'A request with this Idempotency-Key is still running; retry later with the same key.');

/**
 * What the key says of this request, read without holding anything: an answer stored for the same request is
 * replayed, one for another request answers 409 `idempotency_key_payload_mismatch`; otherwise the request runs and
 * takes the key in its transaction (`holdKey`). An expired answer (and a `running` row an older version left) is
 * no answer.
 */
export async function lookupKey(db: Executor, claim: ClaimedKey, now: Date): Promise<Claim> {
  // Raw SQL, as storeAnswer: every Plan write with a key runs both (db/raw-sql.ts).
  const row = await firstOf<IdempotencyKeyRow>(db, 'select * from plan_idempotency_keys where actor_id = ? and key = ? limit 1', [claim.actorId, claim.key]);
  if (!row || row.state !== 'done' || String(row.expires_at) <= now.toISOString()) return { kind: 'claimed', claim };
  if (row.fingerprint !== claim.fingerprint) throw mismatch();
  return { kind: 'replay', answer: answerOf(row) };
}

/** Thrown by holdKey when the answer was stored between lookupKey and the transaction: the write rolls back and replays it. */
export class StoredReplay extends Error {
  readonly answer: StoredAnswer;
  constructor(answer: StoredAnswer) {
    super('replay');
    this.answer = answer;
  }
}

/**
 * Takes the key for the rest of the transaction `trx`, first thing in it: PostgreSQL's transaction-scoped advisory
 * lock on (actor, key), or 409 `idempotency_in_progress` when another transaction holds it; then reads the key again
 * (a request that finished meanwhile is replayed: StoredReplay). Released with the transaction, however it ends.
 */
export async function holdKey(trx: Executor, claim: ClaimedKey, now: Date): Promise<void> {
  if (!isSqlite(trx as unknown as Db)) {
    const { rows } = await trx.raw('select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as held', [`idempotency\n${claim.actorId}\n${claim.key}`]);
    if (!rows[0].held) throw inProgress();
  }
  const found = await lookupKey(trx, claim, now);
  if (found.kind === 'replay') throw new StoredReplay(found.answer);
}

/**
 * Stores the answer as the key's own. Called inside the operation's transaction for a success, under holdKey (so
 * an acknowledged write always has its answer, and a crash before the commit leaves the key free), and in a
 * statement of its own for a refusal (4xx) after the operation rolled back. Replaces only a row that is no answer
 * any more (expired, or an old `running` claim): the first answer stored is the key's.
 */
export async function storeAnswer(db: Executor, claim: ClaimedKey, answer: StoredAnswer, now: Date): Promise<void> {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => REPLAYED_HEADERS.includes(name.toLowerCase())));
  const columns = {
    fingerprint: claim.fingerprint,
    state: 'done' as const,
    locked_until: now.toISOString(),
    status: answer.status,
    headers: writeJson(headers),
    body: answer.body === undefined ? null : writeJson(answer.body),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + KEEP_MS).toISOString(),
  };
  const names = Object.keys(columns);
  const upsert = insertRow(
    'plan_idempotency_keys',
    { actor_id: claim.actorId, key: claim.key, organization_uuid: claim.organizationUuid, ...columns },
    ` on conflict (actor_id, key) do update set ${names.map((name) => `${name} = excluded.${name}`).join(', ')}` +
      ` where plan_idempotency_keys.expires_at <= ? or plan_idempotency_keys.state <> 'done'`,
  );
  await db.raw(upsert.sql, [...upsert.bindings, now.toISOString()]);
}

/** Hourly maintenance: keys whose answer is older than 24 hours. */
export async function pruneIdempotencyKeys(db: Executor, now: Date): Promise<number> {
  return db('plan_idempotency_keys').where('expires_at', '<=', now.toISOString()).delete();
}
