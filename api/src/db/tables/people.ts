/**
 * Organizations, people, teams and credentials (migrations 0001–0008). Column types are what the drivers
 * return: booleans are 0/1 on SQLite and true/false on PostgreSQL; timestamps are ISO 8601 text; JSON is text.
 */

export const PLANS = ['free', 'basic', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLANS)[number];

/** CONTRACT §3 roles: admin > manager > member > guest (what each may do: auth/policy.ts). */
export const ROLES = ['admin', 'manager', 'member', 'guest'] as const;
export type Role = (typeof ROLES)[number];

export const KEY_KINDS = ['personal', 'agent', 'organization'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** The version of an organization's hot-path settings (migration 0891: triggers renew it; db/organization-config.ts). */
export interface OrganizationConfigVersionRow {
  organization_uuid: string;
  version: number | string;
}

export interface OrganizationRow {
  uuid: string;
  name: string;
  /** Lower-case ASCII, unique: agent inbox addresses use it. */
  slug: string;
  timezone: string;
  plan: PlanName;
  plan_beta_enabled: boolean | number;
  exchange_enabled: boolean | number;
  image: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserRow {
  uuid: string;
  organization_uuid: string;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  is_active: boolean | number;
  timezone: string | null;
  occupation: string | null;
  image: string | null;
  /** `en`, `es` or `pt`; null: not chosen (migration 1100). */
  language: string | null;
  /** ISO 3166 country code, optionally with a region (`ES`, `ES-MD`); wins over the check-in's (migration 1100). */
  holiday_calendar: string | null;
  /** JSON of the person's notification preferences (lib/personal-settings.ts); null: the defaults. */
  notifications: string | null;
  created_at: string;
  updated_at: string;
}

export interface TeamRow {
  uuid: string;
  organization_uuid: string;
  name: string;
  active: boolean | number;
  is_default: boolean | number;
  created_at: string;
  updated_at: string;
}

export interface TeamMemberRow {
  team_uuid: string;
  user_uuid: string;
  created_at: string;
}

export interface ApiKeyRow {
  uuid: string;
  organization_uuid: string;
  owner_uuid: string;
  created_by_uuid: string | null;
  name: string;
  kind: KeyKind;
  /** SHA-256 of the secret; the secret itself is never stored. */
  secret_hash: string;
  key_suffix: string;
  /** JSON array of Plan scopes. */
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CliTokenRow {
  uuid: string;
  organization_uuid: string;
  user_uuid: string;
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface InvitationRow {
  uuid: string;
  organization_uuid: string;
  user_uuid: string;
  invited_by_uuid: string | null;
  email: string;
  role: Role;
  /** JSON array of team uuids. */
  team_uuids: string;
  token_hash: string;
  sent_count: number;
  last_sent_at: string;
  /** When the current link stops working (migration 0910; null only on rows written before it ran). */
  expires_at: string | null;
  accepted_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Every counted budget (db/counters.ts): units taken per bucket and fixed window, by all processes. `window_start`
 * is a bigint: text on PostgreSQL.
 */
export interface RateLimitCounterRow {
  bucket: string;
  window_start: number | string;
  count: number;
}

/** Operator switches (`rollcall admin read-only`), JSON values. */
export interface InstanceSettingRow {
  key: string;
  value: string;
  updated_at: string;
}
