/** The API changelog served at GET /v1/changelog/ (spec "Versioning" item 6). Newest first. */
export interface ChangelogEntry {
  version: string;
  date: string;
  title: string;
  changes: string[];
}

export const CHANGELOG: ChangelogEntry[] = [
  {
    version: '1.2.0',
    date: '2026-11-24',
    title: 'Command-line sign-in, the command-line endpoints and exchange tokens',
    changes: [
      'Command-line sign-in under /v1/cli/auth/: POST request-code/ e-mails a six-digit code (10 minutes, 5 tries; the same answer whether or not an account uses the address), POST verify-code/ answers a 30-day Bearer token or the organizations to choose from, GET status/ for an API key or a token, POST logout/ (tokens only) revokes at once. Both anonymous calls count against the authentication budget per client address and per e-mail address.',
      'Command-line client endpoints: GET /v1/cli/updates/ (the client\'s update manifest), POST /v1/cli/updates/ (a stand-up update written into your check-ins scheduled today), GET /v1/cli/status/ (check-ins waiting for your answer, with their questions).',
      'POST /v1/cli/chat/completions/: the operator\'s OpenAI-compatible model (LLM_BASE_URL) with your own data as context, or a built-in assistant for pending check-ins, blockers, your answers, your agents\' reports and kudos; session_id keeps the conversation; 30 questions per minute per credential.',
      'Exchange tokens: POST /v1/exchange-token/ (admins, once an operator turns them on) answers a 300-second token; X-Exchange-Token makes an admin\'s kudos and check-in responses act as that member, audited with both (GET /v1/exchange-token/audit/ for admins).',
      'The method matrix decides which credential each endpoint takes, and the OpenAPI document says so per operation: /v1/platform/* API keys only, /v1/cli/auth/logout/ CLI tokens only. A free-plan organization\'s CLI tokens reach only the spec\'s allow-list (403 plan_upgrade_required elsewhere); its daily caps count the Bearer transport only.',
      'The rollcall command is also a client: login, logout, status, me, update, report, health and messages, each with --json.',
    ],
  },
  {
    version: '1.1.0',
    date: '2026-11-23',
    title: 'Kudos, forms and workflows',
    changes: [
      'Kudos: POST /v1/kudos/ to people and teams (teams expand to their active members, the giver left out; users_receivers and teams_receivers), 400 self_kudos, a daily limit per giver set per organization (406 kudos_daily_limit, default 10, GET|PATCH /v1/kudos/settings/), anonymous kudos, boosts, GET /v1/kudos/?filter=kudos_received|kudos_given, /v1/kudos/timeline/, /v1/kudos/organization/ (admins) and /v1/kudos/wall-of-fame/?period=week|month|quarter|year|all.',
      'Company values: GET /v1/company-values/ for everyone; POST, PATCH and DELETE for admins.',
      'Forms: GET /v1/forms/ with filter, owner, owner_user_ids, order, is_ascend and include=questions; GET /v1/forms/form-owners/; create, config, archive and questions; responses with states, transitions by role, state_history and a final state that locks the response; anonymous forms.',
      'Workflows under /v1/workflows/: api_trigger, schedule (cron in the workflow\'s time zone) and event triggers; send_message, send_email and signed http_request actions through the delivery outbox; POST …/trigger/ (202, workflow triggers budget) and runs with status, per-action results and a log.',
      'Organization events kudos.posted and forms.response.created|updated|deleted are sent to webhooks and start event workflows; a kudos is announced on the connected chat platform.',
    ],
  },
  {
    version: '1.0.0',
    date: '2026-11-22',
    title: 'First self-hosted release of the v1 API',
    changes: [
      'API keys: create, list, detail, rename, regenerate and revoke under /v1/api-keys/ with the spec\'s role rules.',
      'GET /v1/me/ and GET|PATCH /v1/organization/.',
      'Hourly budgets per named scope with RateLimit-Policy and RateLimit headers.',
      'OpenAPI 3.1 description at /v1/openapi.json and an interactive reference at /docs; this changelog at /v1/changelog/; GET /v1/platform/status/ (API keys only) with the server version and what the instance has turned on.',
      'Users (GET /v1/users/, GET|PATCH /v1/users/{uuid}/, include_email, deactivation), POST /v1/invite-user/ and POST /v1/invitations/accept/.',
      'Teams: CRUD under /v1/teams/, members as a bare array, POST …/member/ and DELETE …/member/{user_uuid}/.',
      'Check-ins under /v1/checkins/ (also /v1/followups/): create, detail, config, archive, questions and reorder, responses with history, include_summary and include_pending_users; built-in /v1/templates/; /v1/mood/track/.',
      'Organization events followups.response.completed|updated|deleted (anonymous check-ins carry no user) and organization.user_* / team_user_*.',
      'Plan (beta) under /v1/plan/, marked x-beta in the OpenAPI document. Every call passes, in order: the credential (the key plan checks answer 401 here), 402 plan_upgrade_required until the organization has the beta (GET /v1/plan/entitlements/ always answers), guest_not_allowed, person-only checks (insufficient_scope, actor_required), the key\'s scopes tasks:read / tasks:write / tasks:admin, the read-only switch (503 feature_temporarily_read_only on writes) and per-actor minute ceilings (120 reads, 60 writes, 30 bulk, 240 delta; 429 throttled).',
      'Plan writes take Idempotency-Key (8–128 characters; answers kept 24 hours and replayed with Idempotency-Replayed: true; idempotency_in_progress, idempotency_key_payload_mismatch) and X-Service-Agent-Name (invalid_agent_attribution); destructive calls take ?dry_run=true.',
      'Plan goals (goal_name_conflict, linked projects), projects (project_name_conflict, archive, members with last_grant_cannot_be_removed, milestones, updates with update_body_too_long and update_not_author), boards (keys with duplicate_board_key, visibility org | members, members, mentionables), states (default set, reorder, archive with migrate_to; states_reorder_invalid, state_in_use, last_done_state, board_not_initialized, column_too_large) and labels (archive, label_in_use); free and basic plans keep 3 live boards and 1 live project (402 task_boards_limit_reached, task_projects_limit_reached); GET /v1/plan/channels/?type= and /v1/plan/notifications/catalog/.',
      'Agents: POST|GET /v1/agent-reports/ (co-authors merged into their stand-ups), POST|GET /v1/agent-health/ and GET /v1/agent/health/, /v1/agent-messages/ and …/read/, POST /v1/agent-email/send/ with replies coming back as messages, POST|DELETE /v1/agent-webhook/, and self-registration with claim under /v1/agent/ (AGENT_SELF_REGISTRATION).',
      'E-mail and chat: POST /v1/send-email/, POST /v1/send-message/, POST /v1/open-conversation/ and GET /v1/report-channels/ on a connected Slack, Microsoft Teams, Discord or Google Chat; replies by the inbound SMTP listener or POST /v1/inbound-email/.',
      'Organization webhooks at /v1/webhook-subscription/ (with sample deliveries), signed with Standard Webhooks; every outbound delivery is kept in an outbox and retried, and admins read it at /v1/deliveries/ (with redelivery).',
    ],
  },
];
