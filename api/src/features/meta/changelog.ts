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
    date: '2026-11-23',
    title: 'Plan (beta): saved views, favorites, notifications, scheduled reports, files and reactions',
    changes: [
      'Saved views of boards and projects (personal, shared, board_default): GET answers an ETag (304 for If-None-Match), writes need If-Match (428 precondition_required, 412 precondition_failed); 403 view_visibility_forbidden, 400 view_limit_reached (20 personal views per board).',
      'GET|POST /v1/plan/me/favorites/ and DELETE …/{favorite}/: tasks, boards and projects, at most 50 (favorite_limit_reached).',
      'The Plan inbox (/v1/plan/inbox/, summary, read, unread, read-all) and notification routes (/v1/plan/notifications/routes/ {kind, channel, scope?}: a chat channel or "email"; 10 per organization: notification_routes_limit_reached; unknown_notification_kind, channel_not_found, route_scope_not_org_visible). Due-date notices task.due_soon, task.due (new in the catalogue) and task.overdue.',
      'Scheduled reports (/v1/plan/reports/, preview, run): ISO weekdays, HH:MM, an IANA time zone, a chat channel and/or e-mail recipients; kind daily, week_start or week_end; invalid_schedule with extra.parameter; 10 per organization (report_schedules_limit_reached). Each says per board what was done, what is in progress and what is blocked.',
      'Attachments on projects, goals and project updates (one multipart request, 5 MiB), and the presign → PUT → confirm upload (25 MiB) with attachment_not_ready; the content decides the type (attachment_invalid_type), attachment_too_large, attachment_limit_reached (50), attachment_delete_forbidden, 503 attachment_storage_unavailable; downloads as attachments with X-Content-Type-Options: nosniff; files on disk under DATA_DIR or in an S3-compatible store (ATTACHMENT_STORAGE=s3).',
      'Reactions on project updates: one emoji (reaction_invalid_emoji), at most 20 different ones (reaction_limit_reached).',
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
      'Workflows: api_trigger, schedule (cron in the workflow\'s time zone) and event triggers; send_message, send_email and signed http_request actions through the delivery outbox; POST …/trigger/ (202, workflow triggers budget) and runs with status, per-action results and a log.',
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
      'OpenAPI 3.1 description at /v1/openapi.json and an interactive reference at /docs.',
      'Users (GET /v1/users/, GET|PATCH /v1/users/{uuid}/, include_email, deactivation), POST /v1/invite-user/ and POST /v1/invitations/accept/.',
      'Teams: CRUD under /v1/teams/, members as a bare array, POST …/member/ and DELETE …/member/{user_uuid}/.',
      'Check-ins (also /v1/followups/): create, detail, config, archive, questions and reorder, responses with history, include_summary and include_pending_users; built-in /v1/templates/; /v1/mood/track/.',
      'Organization events followups.response.completed|updated|deleted (anonymous check-ins carry no user) and organization.user_* / team_user_*.',
      'Plan (beta) under /v1/plan/, marked x-beta in the OpenAPI document. Every call passes, in order: the credential (the key plan checks answer 401 here), 402 plan_upgrade_required until the organization has the beta (GET /v1/plan/entitlements/ always answers), guest_not_allowed, person-only checks (insufficient_scope, actor_required), the key\'s scopes tasks:read / tasks:write / tasks:admin, the read-only switch (503 feature_temporarily_read_only on writes) and per-actor minute ceilings (120 reads, 60 writes, 30 bulk, 240 delta; 429 throttled).',
      'Plan writes take Idempotency-Key (8–128 characters; answers kept 24 hours and replayed with Idempotency-Replayed: true; idempotency_in_progress, idempotency_key_payload_mismatch) and X-Service-Agent-Name (invalid_agent_attribution); destructive calls take ?dry_run=true.',
      'Plan goals (goal_name_conflict, linked projects), projects (project_name_conflict, archive, members with last_grant_cannot_be_removed, milestones, updates with update_body_too_long and update_not_author), boards (keys with duplicate_board_key, visibility org | members, members, mentionables), states (default set, reorder, archive with migrate_to; states_reorder_invalid, state_in_use, last_done_state, board_not_initialized, column_too_large) and labels (archive, label_in_use); free and basic plans keep 3 live boards and 1 live project (402 task_boards_limit_reached, task_projects_limit_reached); GET /v1/plan/channels/?type= and /v1/plan/notifications/catalog/.',
    ],
  },
];
