import type { Db } from './db/connection.ts';
import { getSetting, setSetting } from './db/settings.ts';
import type { Config } from './lib/config.ts';
import type { Clock } from './lib/clock.ts';
import { createOrganization } from './features/organization/service.ts';
import { createUser } from './features/users/repository.ts';
import { issueKey, regenerateKeySecret } from './features/api-keys/service.ts';

export interface BootstrapResult {
  organizationUuid: string;
  adminEmail: string;
  /** The admin key when Rollcall generated it (to be shown once); null when BOOTSTRAP_API_KEY supplied it. */
  generatedApiKey: string | null;
  /** True when an earlier start made the key but never showed it: this is a new secret for it. */
  reissued?: boolean;
}

/**
 * The uuid of a generated admin key that no terminal has shown yet. Written with the key, removed once the start
 * banner has printed it: a start that dies in between (a crash, a signal) leaves it, and the next start gives
 * the key a new secret and prints that, so the only admin key is never one nobody has seen.
 */
const UNSHOWN_KEY_SETTING = 'bootstrap_key_unshown';

/**
 * On an empty database: one organization (enterprise plan, Plan beta on: a self-hoster owns every feature),
 * its admin, and an admin API key. Returns null when any organization exists already.
 */
export async function bootstrapIfEmpty(db: Db, config: Config, clock: Clock): Promise<BootstrapResult | null> {
  return db.transaction(async (trx) => {
    const existing = await trx('organizations').first('uuid');
    if (existing) return null;
    const now = clock.now();
    const org = await createOrganization(trx, { name: 'My organization', plan: 'enterprise', planBetaEnabled: true }, now);
    const admin = await createUser(trx, { organizationUuid: org.uuid, email: config.bootstrapAdminEmail, firstName: 'Admin', role: 'admin' }, now);
    const key = await issueKey(
      trx,
      { organizationUuid: org.uuid, ownerUuid: admin.uuid, kind: 'personal', name: 'Bootstrap admin key', secret: config.bootstrapApiKey ?? undefined },
      now,
    );
    if (!config.bootstrapApiKey) await setSetting(trx, UNSHOWN_KEY_SETTING, key.uuid, now);
    return { organizationUuid: org.uuid, adminEmail: admin.email, generatedApiKey: config.bootstrapApiKey ? null : key.secret };
  });
}

/** A generated admin key an earlier start never showed gets a new secret, to be shown now; null when there is none. */
export async function reissueUnshownKey(db: Db, clock: Clock): Promise<BootstrapResult | null> {
  return db.transaction(async (trx) => {
    const uuid = await getSetting<string>(trx, UNSHOWN_KEY_SETTING);
    if (!uuid) return null;
    const key = await trx('api_keys as k').join('users as u', 'u.uuid', 'k.owner_uuid').where('k.uuid', uuid).first('k.organization_uuid', 'u.email');
    if (!key) {
      await trx('instance_settings').where({ key: UNSHOWN_KEY_SETTING }).delete();
      return null;
    }
    const secret = await regenerateKeySecret(trx, uuid, clock.now());
    return { organizationUuid: key.organization_uuid, adminEmail: key.email, generatedApiKey: secret, reissued: true };
  });
}

/** The start banner has printed the generated key: later starts print nothing. */
export async function markKeyShown(db: Db): Promise<void> {
  await db('instance_settings').where({ key: UNSHOWN_KEY_SETTING }).delete();
}
