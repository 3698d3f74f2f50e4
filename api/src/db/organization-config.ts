import type { Executor } from './connection.ts';

/**
 * What the hot paths read of an organization's settings on every kudos and every Plan change (which events its
 * webhook subscriptions and event workflows want, its chat platform, its kudos settings), kept in memory under
 * the organization's settings version (migration 0891): one primary-key read of the version instead of a query
 * per setting. Triggers on those tables renew the version on every change that matters, whoever makes it, so
 * a part read under an older version is read again. Correct on both engines and across processes: the version
 * is read first, in the caller's transaction, and a part is kept under the version read before it.
 *
 * `organizationConfig(db, org)` reads the version once; a request that needs several parts (a kudos: its
 * settings, the event's receivers, the chat platform) asks them all of the one it got, as of that moment: a
 * change committed meanwhile is seen by the next request, as if it had come just after this one.
 * A part is named by the feature that reads it (`webhooks:events`, …) and must come only from the tables the
 * migration watches, through the same `db`.
 */
const MAX_ORGANIZATIONS = 10_000;

export interface OrganizationConfig {
  part<T>(name: string, read: () => Promise<T>): Promise<T>;
}

interface Entry {
  version: string;
  parts: Map<string, Promise<unknown>>;
}

const entries = new Map<string, Entry>();

function entryAt(organizationUuid: string, version: string): Entry {
  let entry = entries.get(organizationUuid);
  if (!entry || entry.version !== version) {
    if (entries.size >= MAX_ORGANIZATIONS) entries.delete(entries.keys().next().value!);
    entries.set(organizationUuid, (entry = { version, parts: new Map() }));
  }
  return entry;
}

export async function organizationConfig(db: Executor, organizationUuid: string): Promise<OrganizationConfig> {
  const row = await db('organization_config_versions').where({ organization_uuid: organizationUuid }).first('version');
  // No row: nothing watched has changed since the migration; the tables themselves are the settings.
  const { parts } = entryAt(organizationUuid, row ? String(row.version) : 'initial');
  return {
    part<T>(name: string, read: () => Promise<T>): Promise<T> {
      let value = parts.get(name) as Promise<T> | undefined;
      if (!value) {
        const reading = read();
        parts.set(name, (value = reading));
        // A failed read is not kept: the next call reads again.
        reading.catch(() => parts.get(name) === reading && parts.delete(name));
      }
      return value;
    },
  };
}
