import type { OrganizationRow } from '../../db/tables.ts';
import type { Config } from '../../lib/config.ts';
import { VERSION } from '../../lib/version.ts';

export const presentLiveness = () => ({ status: 'ok' });

/** `/` and `/v1/`: where a person or a client finds out what this server offers. */
export function presentIndex(base: string) {
  return {
    name: 'Rollcall API',
    version: VERSION,
    documentation: `${base}/docs`,
    openapi: `${base}/v1/openapi.json`,
    changelog: `${base}/v1/changelog/`,
  };
}

/** 200 when ready, 503 while migrating or without a database. */
export function presentReadiness({ pendingMigrations }: { pendingMigrations: number | null }) {
  if (pendingMigrations === null) return { status: 503, body: { status: 'unavailable', database: 'error' } };
  const ready = pendingMigrations === 0;
  return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'migrating', database: 'ok', pending_migrations: pendingMigrations } };
}

/** GET /v1/platform/status/: the server version and what this instance has turned on. */
export function presentPlatformStatus(organization: OrganizationRow, config: Config) {
  return {
    version: VERSION,
    organization: { uuid: organization.uuid, name: organization.name, plan: organization.plan },
    features: {
      plan_beta: Boolean(organization.plan_beta_enabled),
      smtp: config.smtpUrl !== null,
      inbound_email: config.inboundSmtpPort !== null || config.inboundEmailSecret !== null,
      llm: config.llm.baseUrl !== null,
      agent_self_registration: config.agentSelfRegistration,
    },
  };
}
