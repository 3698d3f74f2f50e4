import type { Executor } from '../../db/connection.ts';

/** How long a request taken is remembered: longer than any platform accepts a request's timestamp (Slack: 5 minutes). */
const KEPT_MS = 3_600_000;

/**
 * Takes a request (its signature, or the platform's id of an event) once: false when it was taken before, and
 * then nothing it asks may happen. Call it in the transaction of what the request does, so a request either
 * did its work and is remembered, or neither.
 */
export async function takeNonce(trx: Executor, key: string, now: Date): Promise<boolean> {
  const taken = await trx('chat_request_nonces').insert({ key, seen_at: now.toISOString() }).onConflict('key').ignore().returning(['key']);
  return taken.length > 0;
}

/** The hourly prune of requests remembered long enough. */
export const pruneNonces = (db: Executor, now: Date): Promise<number> =>
  db('chat_request_nonces').where('seen_at', '<', new Date(now.getTime() - KEPT_MS).toISOString()).delete();
