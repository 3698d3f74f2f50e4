import type { Actor } from './credentials.ts';

interface Entry {
  actor: Actor;
  cachedAt: number;
}

/**
 * Resolved credentials (owner, role, organization plan) for at most `ttlSeconds` (the spec allows 60).
 * Any write to keys, users or organizations in this process clears it, so a revoked key, a deactivated owner
 * or a downgraded plan stops working at once here; other processes notice within the TTL.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(ttlSeconds: number, maxEntries = 10_000) {
    this.ttlMs = ttlSeconds * 1000;
    this.maxEntries = maxEntries;
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

  set(secretHash: string, actor: Actor, now: number): void {
    if (this.ttlMs === 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(secretHash, { actor, cachedAt: now });
  }

  clear(): void {
    this.entries.clear();
  }
}
