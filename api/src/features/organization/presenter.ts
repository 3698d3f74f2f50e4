import { bool } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import type { OrganizationRow } from '../../db/tables.ts';

/** CONTRACT §3: `{uuid, id, name, timezone, plan, plan_beta_enabled, platform, image, created_at}`. */
export function presentOrganization({ org, platform }: { org: OrganizationRow; platform: string | null }) {
  return {
    uuid: org.uuid,
    id: org.uuid,
    name: org.name,
    timezone: org.timezone,
    plan: org.plan,
    plan_beta_enabled: bool(org.plan_beta_enabled),
    platform,
    image: org.image ?? null,
    created_at: iso(org.created_at),
  };
}

/** What operator commands print: the API shape plus the switches only operators set. */
export function presentOrganizationForOperator(org: OrganizationRow) {
  return {
    uuid: org.uuid,
    name: org.name,
    slug: org.slug,
    plan: org.plan,
    plan_beta_enabled: Boolean(org.plan_beta_enabled),
    exchange_enabled: Boolean(org.exchange_enabled),
  };
}
