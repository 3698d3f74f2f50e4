import type { Db, Executor } from '../../db/connection.ts';
import type { Config } from '../../lib/config.ts';
import type { Resolver } from '../../outbound/address-policy.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { connectPlatform, platformName } from '../chat-platform/connection.ts';
import type { UpdateOrganizationInput } from './schema.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { notFound } from '../../lib/errors.ts';
import type { OrganizationRow, PlanName, Platform } from '../../db/tables.ts';

/** Lower-case ASCII letters, digits and dashes: used in agent inbox addresses (CONTRACT §6). */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug || 'org';
}

async function uniqueSlug(db: Executor, name: string): Promise<string> {
  const base = slugify(name);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const taken = await db('organizations').where({ slug: candidate }).first('uuid');
    if (!taken) return candidate;
  }
}

export interface NewOrganization {
  name: string;
  plan?: PlanName;
  planBetaEnabled?: boolean;
  timezone?: string;
}

export async function createOrganization(db: Executor, input: NewOrganization, now: Date): Promise<OrganizationRow> {
  const row: OrganizationRow = {
    uuid: uuidv7(now.getTime()),
    name: input.name,
    slug: await uniqueSlug(db, input.name),
    timezone: input.timezone ?? 'UTC',
    plan: input.plan ?? 'free',
    plan_beta_enabled: input.planBetaEnabled ?? false,
    exchange_enabled: false,
    image: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db('organizations').insert(row);
  return row;
}

export async function getOrganization(db: Executor, uuid: string): Promise<OrganizationRow> {
  const row = await db('organizations').where({ uuid }).first();
  if (!row) throw notFound();
  return row;
}

/** Finds an organization by uuid, slug or exact name (operator commands accept any of them). */
export async function findOrganization(db: Executor, ref: string): Promise<OrganizationRow | null> {
  return (await db('organizations').where({ uuid: ref }).orWhere({ slug: ref }).orWhere({ name: ref }).first()) ?? null;
}

export interface OrganizationChanges {
  name?: string;
  timezone?: string;
  image?: string | null;
  plan?: PlanName;
  plan_beta_enabled?: boolean;
  exchange_enabled?: boolean;
}

export async function updateOrganization(
  db: Executor,
  uuid: string,
  changes: OrganizationChanges,
  now: Date,
): Promise<OrganizationRow> {
  const fields = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  if (Object.keys(fields).length > 0) {
    await db('organizations').where({ uuid }).update({ ...fields, updated_at: now.toISOString() });
  }
  return getOrganization(db, uuid);
}

/** The organization as the API shows it: with the chat platform it has connected, if any. */
export async function organizationView(db: Executor, uuid: string): Promise<{ org: OrganizationRow; platform: Platform | null }> {
  const org = await getOrganization(db, uuid);
  return { org, platform: await platformName(db, uuid) };
}

/**
 * PATCH /v1/organization/: name, time zone, image and the chat platform connection. The platform's URL is
 * checked against the address policy (a DNS lookup) before anything is written.
 */
export async function updateOrganizationSettings(
  db: Db,
  services: { box: SecretBox; config: Config; resolve: Resolver | undefined },
  uuid: string,
  input: UpdateOrganizationInput,
  now: Date,
): Promise<{ org: OrganizationRow; platform: Platform | null }> {
  const { platform, ...changes } = input;
  if (platform !== undefined) await connectPlatform(db, services.box, services.config, services.resolve, uuid, platform, now);
  await updateOrganization(db, uuid, changes, now);
  return organizationView(db, uuid);
}
