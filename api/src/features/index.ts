import type { Feature } from '../http/feature.ts';
import { agents } from './agents/feature.ts';
import { forms } from './forms/feature.ts';
import { kudos } from './kudos/feature.ts';
import { workflows } from './workflows/feature.ts';
import { apiKeys } from './api-keys/feature.ts';
import { assistant } from './assistant/feature.ts';
import { chat } from './chat/feature.ts';
import { chatSlack } from './chat/slack/feature.ts';
import { chatMattermost } from './chat/mattermost/feature.ts';
import { chatTeams } from './chat/microsoft-teams/feature.ts';
import { chatGoogle } from './chat/google-chat/feature.ts';
import { chatDiscord } from './chat/discord/feature.ts';
import { checkins } from './checkins/feature.ts';
import { checkinRuns } from './checkin-runs/feature.ts';
import { insights } from './insights/feature.ts';
import { cli } from './cli/feature.ts';
import { cliAuth } from './cli-auth/feature.ts';
import { deliveries } from './deliveries/feature.ts';
import { email } from './email/feature.ts';
import { exchangeTokens } from './exchange-tokens/feature.ts';
import { inbound } from './inbound/feature.ts';
import { invitations } from './invitations/feature.ts';
import { me } from './me/feature.ts';
import { meta } from './meta/feature.ts';
import { mood } from './mood/feature.ts';
import { organization } from './organization/feature.ts';
import { teams } from './teams/feature.ts';
import { templates } from './templates/feature.ts';
import { users } from './users/feature.ts';
import { webhooks } from './webhooks/feature.ts';
import { planFrame } from './plan/frame/feature.ts';
import { planEntitlements } from './plan/entitlements/feature.ts';
import { planChannels } from './plan/channels/feature.ts';
import { planNotifications } from './plan/notifications/feature.ts';
import { planGoals } from './plan/goals/feature.ts';
import { planProjects } from './plan/projects/feature.ts';
import { planMilestones } from './plan/milestones/feature.ts';
import { planUpdates } from './plan/updates/feature.ts';
import { planBoards } from './plan/boards/feature.ts';
import { planMembers } from './plan/members/feature.ts';
import { planStates } from './plan/states/feature.ts';
import { planLabels } from './plan/labels/feature.ts';
import { planTasks } from './plan/tasks/feature.ts';
import { planTaskHistory } from './plan/task-history/feature.ts';
import { planTaskBulk } from './plan/task-bulk/feature.ts';
import { planDelta } from './plan/delta/feature.ts';
import { planSearch } from './plan/search-endpoint/feature.ts';
import { planActivity } from './plan/activity/feature.ts';
import { planPulse } from './plan/pulse/feature.ts';
import { planTimeline } from './plan/timeline/feature.ts';
import { planViews } from './plan/views/feature.ts';
import { planFavorites } from './plan/favorites/feature.ts';
import { planReports } from './plan/reports/feature.ts';
import { planAttachments } from './plan/attachments/feature.ts';
import { planReactions } from './plan/reactions/feature.ts';
import { planComments } from './plan/comments/feature.ts';
import { planMe } from './plan/me/feature.ts';
import { planTaskBoard } from './plan/task-board/feature.ts';
import { planTaskDetail } from './plan/task-detail/feature.ts';

/**
 * Every feature of the API, in routing order. The app mounts their routers, the OpenAPI catalogue reads their
 * openapi.ts, the delivery wiring registers their senders and inbound routes, the scheduler runs their jobs.
 * A new feature is a folder with its feature.ts, its migrations, and one line here.
 */
export const features: Feature[] = [
  meta,
  me,
  organization,
  apiKeys,
  users,
  invitations,
  teams,
  checkins,
  checkinRuns,
  insights,
  templates,
  mood,
  deliveries,
  webhooks,
  email,
  inbound,
  chat,
  chatSlack,
  chatMattermost,
  chatTeams,
  chatGoogle,
  chatDiscord,
  agents,
  kudos,
  workflows,
  forms,
  // Plan (beta), one feature per resource; the frame's own (its jobs) first.
  planFrame,
  planEntitlements,
  planChannels,
  planNotifications,
  planGoals,
  planProjects,
  planMilestones,
  planUpdates,
  planBoards,
  planMembers,
  planStates,
  planLabels,
  planTasks,
  planTaskHistory,
  planTaskBulk,
  planDelta,
  planSearch,
  planActivity,
  planPulse,
  planTimeline,
  planViews,
  planFavorites,
  planMe,
  planTaskBoard,
  planTaskDetail,
  planReports,
  planAttachments,
  planReactions,
  planComments,
  cliAuth,
  cli,
  assistant,
  exchangeTokens,
];
