import type { Knex } from 'knex';

export interface MigrationModule {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

export interface Migration {
  name: string;
  /** Imported only when the migration has to run: a migrated database loads none of these files at start. */
  load(): Promise<MigrationModule>;
}

/** Append only: a migration that has landed is never edited; a change is a new file at the end. */
export const migrations: Migration[] = [
  { name: '0001_organizations', load: () => import('./0001_organizations.ts') },
  { name: '0002_users', load: () => import('./0002_users.ts') },
  { name: '0003_teams', load: () => import('./0003_teams.ts') },
  { name: '0004_team_members', load: () => import('./0004_team_members.ts') },
  { name: '0005_api_keys', load: () => import('./0005_api_keys.ts') },
  { name: '0006_cli_tokens', load: () => import('./0006_cli_tokens.ts') },
  { name: '0007_rate_limit_counters', load: () => import('./0007_rate_limit_counters.ts') },
  { name: '0008_instance_settings', load: () => import('./0008_instance_settings.ts') },
  { name: '0009_organization_events', load: () => import('./0009_organization_events.ts') },
  { name: '0010_deliveries', load: () => import('./0010_deliveries.ts') },
  { name: '0100_invitations', load: () => import('./0100_invitations.ts') },
  { name: '0101_checkins', load: () => import('./0101_checkins.ts') },
  { name: '0102_checkin_questions', load: () => import('./0102_checkin_questions.ts') },
  { name: '0103_checkin_participant_users', load: () => import('./0103_checkin_participant_users.ts') },
  { name: '0104_checkin_participant_teams', load: () => import('./0104_checkin_participant_teams.ts') },
  { name: '0105_checkin_responses', load: () => import('./0105_checkin_responses.ts') },
  { name: '0106_mood_entries', load: () => import('./0106_mood_entries.ts') },
  { name: '0200_delivery_routing', load: () => import('./0200_delivery_routing.ts') },
  { name: '0201_delivery_attempts', load: () => import('./0201_delivery_attempts.ts') },
  { name: '0202_webhook_subscriptions', load: () => import('./0202_webhook_subscriptions.ts') },
  { name: '0203_chat_connections', load: () => import('./0203_chat_connections.ts') },
  { name: '0204_daily_caps', load: () => import('./0204_daily_caps.ts') },
  { name: '0300_agents', load: () => import('./0300_agents.ts') },
  { name: '0301_agent_reports', load: () => import('./0301_agent_reports.ts') },
  { name: '0302_agent_health_checks', load: () => import('./0302_agent_health_checks.ts') },
  { name: '0303_agent_messages', load: () => import('./0303_agent_messages.ts') },
  { name: '0304_agent_emails', load: () => import('./0304_agent_emails.ts') },
  { name: '0305_agent_registration_challenges', load: () => import('./0305_agent_registration_challenges.ts') },
  { name: '0306_agent_messages_pending_order_index', load: () => import('./0306_agent_messages_pending_order_index.ts') },
  { name: '0400_cli_sign_in_codes', load: () => import('./0400_cli_sign_in_codes.ts') },
  { name: '0401_exchange_tokens', load: () => import('./0401_exchange_tokens.ts') },
  { name: '0402_audit_events', load: () => import('./0402_audit_events.ts') },
  { name: '0403_assistant_sessions', load: () => import('./0403_assistant_sessions.ts') },
  { name: '0500_kudos', load: () => import('./0500_kudos.ts') },
  { name: '0501_workflows', load: () => import('./0501_workflows.ts') },
  { name: '0502_forms', load: () => import('./0502_forms.ts') },
  { name: '0600_plan_frame', load: () => import('./0600_plan_frame.ts') },
  { name: '0601_plan_goals_projects', load: () => import('./0601_plan_goals_projects.ts') },
  { name: '0602_plan_boards', load: () => import('./0602_plan_boards.ts') },
  { name: '0603_plan_tasks', load: () => import('./0603_plan_tasks.ts') },
  { name: '0620_plan_task_links', load: () => import('./0620_plan_task_links.ts') },
  { name: '0621_plan_task_search', load: () => import('./0621_plan_task_search.ts') },
  { name: '0650_plan_views_favorites', load: () => import('./0650_plan_views_favorites.ts') },
  { name: '0651_plan_notifications', load: () => import('./0651_plan_notifications.ts') },
  { name: '0652_plan_report_schedules', load: () => import('./0652_plan_report_schedules.ts') },
  { name: '0653_plan_attachments', load: () => import('./0653_plan_attachments.ts') },
  { name: '0654_plan_comments', load: () => import('./0654_plan_comments.ts') },
  { name: '0670_plan_container_search', load: () => import('./0670_plan_container_search.ts') },
  { name: '0671_plan_task_search_placement', load: () => import('./0671_plan_task_search_placement.ts') },
  { name: '0700_daily_caps_into_budgets', load: () => import('./0700_daily_caps_into_budgets.ts') },
  { name: '0701_job_firings', load: () => import('./0701_job_firings.ts') },
  { name: '0702_delivery_leases', load: () => import('./0702_delivery_leases.ts') },
  { name: '0750_checkin_response_parts', load: () => import('./0750_checkin_response_parts.ts') },
  { name: '0810_plan_task_rank_unique', load: () => import('./0810_plan_task_rank_unique.ts') },
  { name: '0820_checkin_runs', load: () => import('./0820_checkin_runs.ts') },
  { name: '0850_plan_client_fields', load: () => import('./0850_plan_client_fields.ts') },
  { name: '0860_plan_label_description', load: () => import('./0860_plan_label_description.ts') },
  { name: '0890_plan_task_search_state', load: () => import('./0890_plan_task_search_state.ts') },
  { name: '0891_organization_config_versions', load: () => import('./0891_organization_config_versions.ts') },
  { name: '0900_plan_task_label_placement', load: () => import('./0900_plan_task_label_placement.ts') },
  { name: '0910_invitation_expiry', load: () => import('./0910_invitation_expiry.ts') },
  { name: '0930_checkin_reply_order', load: () => import('./0930_checkin_reply_order.ts') },
  { name: '0950_chat_apps', load: () => import('./0950_chat_apps.ts') },
  { name: '0980_chat_bot_apps', load: () => import('./0980_chat_bot_apps.ts') },
  { name: '1050_checkin_blockers', load: () => import('./1050_checkin_blockers.ts') },
];
