import type { Knex } from 'knex';
import * as organizations from './0001_organizations.ts';
import * as users from './0002_users.ts';
import * as teams from './0003_teams.ts';
import * as teamMembers from './0004_team_members.ts';
import * as apiKeys from './0005_api_keys.ts';
import * as cliTokens from './0006_cli_tokens.ts';
import * as rateLimitCounters from './0007_rate_limit_counters.ts';
import * as instanceSettings from './0008_instance_settings.ts';
import * as organizationEvents from './0009_organization_events.ts';
import * as deliveries from './0010_deliveries.ts';
import * as invitations from './0100_invitations.ts';
import * as checkins from './0101_checkins.ts';
import * as checkinQuestions from './0102_checkin_questions.ts';
import * as checkinParticipantUsers from './0103_checkin_participant_users.ts';
import * as checkinParticipantTeams from './0104_checkin_participant_teams.ts';
import * as checkinResponses from './0105_checkin_responses.ts';
import * as moodEntries from './0106_mood_entries.ts';
import * as deliveryRouting from './0200_delivery_routing.ts';
import * as deliveryAttempts from './0201_delivery_attempts.ts';
import * as webhookSubscriptions from './0202_webhook_subscriptions.ts';
import * as chatConnections from './0203_chat_connections.ts';
import * as dailyCaps from './0204_daily_caps.ts';
import * as agents from './0300_agents.ts';
import * as agentReports from './0301_agent_reports.ts';
import * as agentHealthChecks from './0302_agent_health_checks.ts';
import * as agentMessages from './0303_agent_messages.ts';
import * as agentEmails from './0304_agent_emails.ts';
import * as agentRegistrationChallenges from './0305_agent_registration_challenges.ts';
import * as agentMessagesPendingOrderIndex from './0306_agent_messages_pending_order_index.ts';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** Append only: a migration that has landed is never edited; a change is a new file at the end. */
export const migrations: Migration[] = [
  { name: '0001_organizations', ...organizations },
  { name: '0002_users', ...users },
  { name: '0003_teams', ...teams },
  { name: '0004_team_members', ...teamMembers },
  { name: '0005_api_keys', ...apiKeys },
  { name: '0006_cli_tokens', ...cliTokens },
  { name: '0007_rate_limit_counters', ...rateLimitCounters },
  { name: '0008_instance_settings', ...instanceSettings },
  { name: '0009_organization_events', ...organizationEvents },
  { name: '0010_deliveries', ...deliveries },
  { name: '0100_invitations', ...invitations },
  { name: '0101_checkins', ...checkins },
  { name: '0102_checkin_questions', ...checkinQuestions },
  { name: '0103_checkin_participant_users', ...checkinParticipantUsers },
  { name: '0104_checkin_participant_teams', ...checkinParticipantTeams },
  { name: '0105_checkin_responses', ...checkinResponses },
  { name: '0106_mood_entries', ...moodEntries },
  { name: '0200_delivery_routing', ...deliveryRouting },
  { name: '0201_delivery_attempts', ...deliveryAttempts },
  { name: '0202_webhook_subscriptions', ...webhookSubscriptions },
  { name: '0203_chat_connections', ...chatConnections },
  { name: '0204_daily_caps', ...dailyCaps },
  { name: '0300_agents', ...agents },
  { name: '0301_agent_reports', ...agentReports },
  { name: '0302_agent_health_checks', ...agentHealthChecks },
  { name: '0303_agent_messages', ...agentMessages },
  { name: '0304_agent_emails', ...agentEmails },
  { name: '0305_agent_registration_challenges', ...agentRegistrationChallenges },
  { name: '0306_agent_messages_pending_order_index', ...agentMessagesPendingOrderIndex },
];
