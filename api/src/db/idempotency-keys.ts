import type { Executor } from './connection.ts';
import { conflict } from '../lib/errors.ts';
import { readJson, writeJson } from '../lib/json.ts';
import type { IdempotencyKeyRow } from './tables.ts';

/**
 * Stored answers of Plan writes sent with an Idempotency-Key (table plan_idempotency_keys): per actor and key,
 * `running` while the first request runs, then `done` with the answer to replay.
 */

/** The spec's Limits: a key is 8 to 128 characters; kept 24 hours; "in progress" for up to 120 seconds. */
export const KEY_MIN = 8;
export const KEY_MAX = 128;
export const KEEP_MS = 24 * 3_600_000;
export const LOCK_MS = 120_000;

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
}

export type Claim = { kind: 'claimed'; claim: ClaimedKey } | { kind: 'replay'; answer: StoredAnswer };

function answerOf(row: IdempotencyKeyRow): StoredAnswer {
  return { status: Number(row.status), headers: readJson<Record<string, string>>(row.headers, {}), body: readJson<unknown>(row.body, null) };
}

const mismatch = () => conflict('idempotency_key_payload_mismatch', 'This Idempotency-Key was already used with a different request body.');
const inProgress = () => conflict('idempotency_in_progress', 'A request with this Idempotency-Key is still running; retry later with the same key.');

/**
 * Claims `key` for this request, in statements of its own (committed before the operation starts):
 * a new key is inserted as `running`; a finished one with the same fingerprint is replayed; another fingerprint
 * answers 409 `idempotency_key_payload_mismatch`; one still running answers 409 `idempotency_in_progress` until
 * its lock lapses (a request killed mid-way), after which this request takes it over. An expired key is free.
 */
export async function claimKey(db: Executor, params: ClaimedKey & { organizationUuid: string }, now: Date): Promise<Claim> {
  const { actorId, key, fingerprint } = params;
  const fresh = {
    fingerprint,
    state: 'running' as const,
    locked_until: new Date(now.getTime() + LOCK_MS).toISOString(),
    status: null,
    headers: null,
    body: null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + KEEP_MS).toISOString(),
  };
  const claimed: Claim = { kind: 'claimed', claim: { actorId, key, fingerprint } };
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db('plan_idempotency_keys')
      .insert({ actor_id: actorId, key, organization_uuid: params.organizationUuid, ...fresh })
      .onConflict(['actor_id', 'key'])
      .ignore()
      .returning('actor_id');
    if (inserted.length > 0) return claimed;

    const row = await db('plan_idempotency_keys').where({ actor_id: actorId, key }).first();
    if (!row) continue; // pruned between the two statements: insert again
    const nowIso = now.toISOString();
    // Expired, or running past its lock: take it over, guarded on what was read so only one request wins.
    const stale = String(row.expires_at) <= nowIso || (row.state === 'running' && String(row.locked_until) <= nowIso);
    if (stale) {
      const taken = await db('plan_idempotency_keys')
        .where({ actor_id: actorId, key, state: row.state, locked_until: row.locked_until, expires_at: row.expires_at })
        .update(fresh);
      if (taken === 1) return claimed;
      continue;
    }
    if (row.fingerprint !== fingerprint) throw mismatch();
    if (row.state === 'running') throw inProgress();
    return { kind: 'replay', answer: answerOf(row) };
  }
  throw inProgress();
}

function storedColumns(answer: StoredAnswer, now: Date) {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => REPLAYED_HEADERS.includes(name.toLowerCase())));
  return {
    state: 'done' as const,
    status: answer.status,
    headers: writeJson(headers),
    body: answer.body === undefined ? null : writeJson(answer.body),
    expires_at: new Date(now.getTime() + KEEP_MS).toISOString(),
  };
}

/**
 * Stores the answer as the key's own. Called inside the operation's transaction for a success (so an
 * acknowledged write always has its answer, and a crash before the commit leaves the key free to run again), and
 * in a statement of its own for a refusal (4xx) after the operation rolled back.
 */
export async function storeAnswer(db: Executor, claim: ClaimedKey, answer: StoredAnswer, now: Date): Promise<void> {
  await db('plan_idempotency_keys').where({ actor_id: claim.actorId, key: claim.key, fingerprint: claim.fingerprint }).update(storedColumns(answer, now));
}

/** An unexpected failure frees the key at once: the same request may simply be sent again. */
export async function releaseKey(db: Executor, claim: ClaimedKey): Promise<void> {
  await db('plan_idempotency_keys').where({ actor_id: claim.actorId, key: claim.key, fingerprint: claim.fingerprint, state: 'running' }).delete();
}

/** Hourly maintenance: keys whose answer is older than 24 hours. */
export async function pruneIdempotencyKeys(db: Executor, now: Date): Promise<number> {
  return db('plan_idempotency_keys').where('expires_at', '<=', now.toISOString()).delete();
}
