import type { Executor } from '../../../db/connection.ts';
import { badRequest, conflict } from '../../../http/errors.ts';
import { readJson, writeJson } from '../../../lib/json.ts';
import { sha256Hex } from '../../../lib/secrets.ts';

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

/** The Idempotency-Key header, or null when absent; 400 `invalid_idempotency_key` unless 8–128 characters. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? null : raw;
  // Printable ASCII: the key is compared byte for byte and stored as sent.
  if (key === null || key.length < KEY_MIN || key.length > KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest('invalid_idempotency_key', `Idempotency-Key must be ${KEY_MIN} to ${KEY_MAX} printable characters without spaces.`);
  }
  return key;
}

/** JSON with object keys sorted at every depth, so the same body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same request": method, path with its query, and the body. */
export function requestFingerprint(method: string, pathWithQuery: string, body: unknown): string {
  return sha256Hex(`${method}\n${pathWithQuery}\n${canonicalJson(body ?? {})}`);
}

function answerOf(row: { status: number; headers: unknown; body: unknown }): StoredAnswer {
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
    state: 'running',
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
    state: 'done',
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
