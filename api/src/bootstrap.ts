import type { Db } from './db/connection.ts';
import type { Config } from './lib/config.ts';
import type { Clock } from './lib/clock.ts';
import { createOrganization } from './features/organization/service.ts';
import { createUser } from './features/users/repository.ts';
import { issueKey } from './features/api-keys/service.ts';

export interface BootstrapResult {
  organizationUuid: string;
  adminEmail: string;
  /** The admin key when Rollcall generated it (to be shown once); null when BOOTSTRAP_API_KEY supplied it. */
  generatedApiKey: string | null;
}

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
    return { organizationUuid: org.uuid, adminEmail: admin.email, generatedApiKey: config.bootstrapApiKey ? null : key.secret };
  });
}
