import type { Notifications } from '../db/notifications.ts';
import type { Actor } from './credentials.ts';

interface Entry {
  actor: Actor;
  cachedAt: number;
}

/**
 * Resolved credentials (owner, role, organization plan) for at most `ttlSeconds` (the spec allows 60).
 * A write to keys, users or organizations calls `invalidate()`: this process forgets every entry at once and
 * tells the others (db/notifications.ts: LISTEN/NOTIFY on PostgreSQL), which forget theirs when the signal
 * arrives, within milliseconds. Should a signal be lost (the listening connection was down), the TTL still
 * bounds how long a revoked key, a deactivated owner or a downgraded plan keeps working elsewhere.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly notifications: Notifications | null;
  /**
   * Counts invalidations. A lookup that started before one must not store what it read (it may predate the
   * change): `set` is handed the generation the lookup started in and ignores a stale one.
   */
  #generation = 0;

  constructor(ttlSeconds: number, options: { maxEntries?: number; notifications?: Notifications } = {}) {
    this.ttlMs = ttlSeconds * 1000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.notifications = options.notifications ?? null;
    this.notifications?.subscribe('credentials', () => this.forget());
  }

  get generation(): number {
    return this.#generation;
  }

  get(secretHash: string, now: number): Actor | null {
    const entry = this.entries.get(secretHash);
    if (!entry) return null;
    if (now - entry.cachedAt >= this.ttlMs) {
      this.entries.delete(secretHash);
      return null;
    }
    const expiresAt = entry.actor.credential.expiresAt;
    if (expiresAt && Date.parse(expiresAt) <= now) {
      this.entries.delete(secretHash);
      return null;
    }
    return entry.actor;
  }

  /** Stores a lookup's result, unless the cache was invalidated since `generation` (when the lookup started). */
  set(secretHash: string, actor: Actor, now: number, generation = this.#generation): void {
    if (this.ttlMs === 0 || generation !== this.#generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(secretHash, { actor, cachedAt: now });
  }

  /** After a change to who a credential acts as: forget here, and tell the other processes. */
  async invalidate(): Promise<void> {
    if (this.notifications) await this.notifications.publish('credentials');
    else this.forget();
  }

  /** Forgets every entry in this process only. */
  forget(): void {
    this.#generation++;
    this.entries.clear();
  }
}
