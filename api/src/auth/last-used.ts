import type { Db } from '../db/connection.ts';
import type { Actor } from './credentials.ts';

const RESOLUTION_MS = 60_000;

/**
 * `last_used_at` of API keys and CLI tokens, written at most once a minute per credential by this process, so
 * a credential in use costs one write a minute rather than one per request.
 */
export class LastUsed {
  readonly #db: Db;
  readonly #written = new Map<string, number>();

  constructor(db: Db) {
    this.#db = db;
  }

  /** The write, or null (no promise) when this credential was recorded less than a minute ago. */
  touch(actor: Actor, now: Date): Promise<void> | null {
    const previous = this.#written.get(actor.credential.uuid) ?? 0;
    if (now.getTime() - previous < RESOLUTION_MS) return null;
    if (this.#written.size > 50_000) this.#written.clear();
    this.#written.set(actor.credential.uuid, now.getTime());
    const table = actor.credential.kind === 'api_key' ? 'api_keys' : 'cli_tokens';
    return this.#db(table).where({ uuid: actor.credential.uuid }).update({ last_used_at: now.toISOString() }).then(() => undefined);
  }
}
