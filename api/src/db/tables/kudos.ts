/** Kudos, their receivers, teams and boosts, company values and the kudos settings (migration 0500). */

export interface CompanyValueRow {
  uuid: string;
  organization_uuid: string;
  value: string;
  emoji: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface KudosRow {
  uuid: string;
  organization_uuid: string;
  /** Kept for anonymous kudos too (the daily limit, the giver's own list); never shown for them. */
  giver_uuid: string;
  content: string;
  company_value_uuid: string | null;
  is_anonymous: boolean | number;
  boosts_count: number;
  created_at: string;
}

export interface KudosReceiverRow {
  kudos_uuid: string;
  user_uuid: string;
  created_at: string;
}

export interface KudosTeamRow {
  kudos_uuid: string;
  team_uuid: string;
}

export interface KudosBoostRow {
  kudos_uuid: string;
  user_uuid: string;
  organization_uuid: string;
  created_at: string;
}

export interface KudosSettingsRow {
  organization_uuid: string;
  daily_limit: number;
  chat_announcements: boolean | number;
  chat_channel: string | null;
  updated_at: string;
}

/** Kudos given per giver and local day of the organization. */
export interface KudosDailyCountRow {
  giver_uuid: string;
  day: string;
  count: number;
}
