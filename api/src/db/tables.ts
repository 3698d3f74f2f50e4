import type { AgentEmailRow, AgentRow, HealthCheckRow, MessageRow, RegistrationChallengeRow, ReportRow } from './tables/agents.ts';
import type { AssistantSessionRow, AssistantTurnRow, AuditEventRow, CliSignInCodeRow, ExchangeTokenRow } from './tables/cli.ts';
import type { AnswerValueRow } from './tables/checkins.ts';
import type {
  AnswerTokenRow, BlockerRow, ChatConversationRow, CheckinParticipantTeamRow, CheckinParticipantUserRow, CheckinReportRow, CheckinRow, MoodRow, PromptRow, PromptSlotRow, QuestionRow, ReplyKeyRow, ResponsePartRow, ResponseRow, TimeOffRow,
} from './tables/checkins.ts';
import type { ChatAnswerDraftRow, ChatConnectionRow, ChatLinkRequestRow, ChatLinkedAccountRow, ChatMessageRow, ChatPersonRow, ChatRequestNonceRow, DeliveryAttemptRow, DeliveryRow, OrganizationEventRow, SubscriptionRow } from './tables/outbox.ts';
import type {
  BoardKeyRow, BoardMemberRow, BoardRow, GoalRow, IdempotencyKeyRow, LabelRow, MilestoneRow, PlanChangeRow, PlanOrganizationRow, ProjectMemberRow,
  ProjectRow, ProjectUpdateRow, StateRow, TaskLabelRow, TaskRow,
  BoardVisitRow,
  PersonSettingsRow,
  ReportRunRow,
} from './tables/plan.ts';
import type { TaskKeyRow, TaskParticipantRow, TaskRelationRow, TaskSearchRow, TaskSubscriptionRow } from './tables/plan-tasks.ts';
import type {
  AttachmentRow, CommentRow, DueNoticeRow, FavoriteRow, FileTrashRow, NotificationRouteRow, NotificationRow, ReactionRow, ReportScheduleRow, ViewRow,
} from './tables/plan-collab.ts';
import type {
  ApiKeyRow, CliTokenRow, InstanceSettingRow, InvitationRow, OrganizationConfigVersionRow, OrganizationRow, RateLimitCounterRow, TeamMemberRow, TeamRow, UserRow,
} from './tables/people.ts';
import type { CompanyValueRow, KudosBoostRow, KudosDailyCountRow, KudosReceiverRow, KudosRow, KudosSettingsRow, KudosTeamRow } from './tables/kudos.ts';
import type { FormHistoryRow, FormOwnerRow, FormQuestionRow, FormResponseRow, FormRow } from './tables/forms.ts';
import type { RunActionRow, RunRow, WorkflowRow } from './tables/workflows.ts';
import type { JobFiringRow } from './tables/jobs.ts';

export * from './tables/people.ts';
export * from './tables/outbox.ts';
export * from './tables/checkins.ts';
export * from './tables/agents.ts';
export * from './tables/kudos.ts';
export * from './tables/forms.ts';
export * from './tables/workflows.ts';
export * from './tables/plan.ts';
export * from './tables/jobs.ts';
export * from './tables/cli.ts';
export * from './tables/plan-tasks.ts';
export * from './tables/plan-collab.ts';

/**
 * The current shape of every table, one row type per table (the migrations build them; each area's types are in
 * tables/). Declaring them to Knex types every single-table query: `db('users').where(…).first()` is a
 * `UserRow | undefined`, and inserts and updates are checked against the columns. A new table gets its row type
 * in its area's file and a line here, in the same change as its migration.
 */
declare module 'knex/types/tables.js' {
  interface Tables {
    organizations: OrganizationRow;
    organization_config_versions: OrganizationConfigVersionRow;
    users: UserRow;
    teams: TeamRow;
    team_members: TeamMemberRow;
    api_keys: ApiKeyRow;
    cli_tokens: CliTokenRow;
    rate_limit_counters: RateLimitCounterRow;
    instance_settings: InstanceSettingRow;
    job_firings: JobFiringRow;
    invitations: InvitationRow;
    organization_events: OrganizationEventRow;
    deliveries: DeliveryRow;
    delivery_attempts: DeliveryAttemptRow;
    webhook_subscriptions: SubscriptionRow;
    chat_connections: ChatConnectionRow;
    chat_messages: ChatMessageRow;
    chat_people: ChatPersonRow;
    chat_request_nonces: ChatRequestNonceRow;
    chat_link_requests: ChatLinkRequestRow;
    chat_linked_accounts: ChatLinkedAccountRow;
    chat_answer_drafts: ChatAnswerDraftRow;
    checkin_chat_conversations: ChatConversationRow;
    checkin_blockers: BlockerRow;
    checkins: CheckinRow;
    checkin_questions: QuestionRow;
    checkin_participant_users: CheckinParticipantUserRow;
    checkin_participant_teams: CheckinParticipantTeamRow;
    checkin_responses: ResponseRow;
    checkin_response_parts: ResponsePartRow;
    checkin_answer_values: AnswerValueRow;
    checkin_prompt_slots: PromptSlotRow;
    checkin_prompts: PromptRow;
    checkin_answer_tokens: AnswerTokenRow;
    checkin_reply_keys: ReplyKeyRow;
    checkin_reports: CheckinReportRow;
    user_time_off: TimeOffRow;
    mood_entries: MoodRow;
    agents: AgentRow;
    agent_reports: ReportRow;
    agent_health_checks: HealthCheckRow;
    agent_messages: MessageRow;
    agent_emails: AgentEmailRow;
    agent_registration_challenges: RegistrationChallengeRow;
    company_values: CompanyValueRow;
    kudos: KudosRow;
    kudos_receivers: KudosReceiverRow;
    kudos_teams: KudosTeamRow;
    kudos_boosts: KudosBoostRow;
    kudos_settings: KudosSettingsRow;
    kudos_daily_counts: KudosDailyCountRow;
    workflows: WorkflowRow;
    workflow_runs: RunRow;
    workflow_run_actions: RunActionRow;
    forms: FormRow;
    form_owners: FormOwnerRow;
    form_questions: FormQuestionRow;
    form_responses: FormResponseRow;
    form_response_history: FormHistoryRow;
    plan_organizations: PlanOrganizationRow;
    plan_changes: PlanChangeRow;
    plan_idempotency_keys: IdempotencyKeyRow;
    plan_goals: GoalRow;
    plan_projects: ProjectRow;
    plan_project_members: ProjectMemberRow;
    plan_milestones: MilestoneRow;
    plan_board_visits: BoardVisitRow;
    plan_person_settings: PersonSettingsRow;
    plan_report_runs: ReportRunRow;
    plan_project_updates: ProjectUpdateRow;
    plan_boards: BoardRow;
    plan_board_keys: BoardKeyRow;
    plan_board_members: BoardMemberRow;
    plan_states: StateRow;
    plan_labels: LabelRow;
    plan_tasks: TaskRow;
    plan_task_labels: TaskLabelRow;
    cli_sign_in_codes: CliSignInCodeRow;
    exchange_tokens: ExchangeTokenRow;
    audit_events: AuditEventRow;
    assistant_sessions: AssistantSessionRow;
    assistant_turns: AssistantTurnRow;
    plan_task_keys: TaskKeyRow;
    plan_task_relations: TaskRelationRow;
    plan_task_participants: TaskParticipantRow;
    plan_task_subscriptions: TaskSubscriptionRow;
    plan_task_search: TaskSearchRow;
    plan_views: ViewRow;
    plan_favorites: FavoriteRow;
    plan_notifications: NotificationRow;
    plan_notification_routes: NotificationRouteRow;
    plan_due_notices: DueNoticeRow;
    plan_report_schedules: ReportScheduleRow;
    plan_attachments: AttachmentRow;
    plan_file_trash: FileTrashRow;
    plan_reactions: ReactionRow;
    plan_comments: CommentRow;
  }
}
