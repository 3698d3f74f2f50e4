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
    title: 'Plan tasks',
    changes: [
      'Plan tasks (beta): POST /v1/plan/tasks/ and /v1/plan/boards/{board}/tasks/ give each task a KEY-n from its board, gap-free and never reused, safe under concurrent creation (409 identifier_allocation_failed when the board stays busy; retry with the same Idempotency-Key); a task is addressed by uuid or KEY-n, an old key too. milestone on creation answers 501 not_implemented (PATCH sets it; milestone_not_on_project); description_too_long past 50,000 characters; participant_cannot_access_board; state_not_on_board.',
      'PATCH /v1/plan/tasks/{task}/ with version in the body or If-Match: 409 version_conflict with extra.current_version, 400 version_precondition_ambiguous; every change raises the version and is logged with its snapshot. Task writes answer an ETag of the version.',
      'Sub-tasks one level deep on the parent\'s board (…/children/; subtask_depth_exceeded, subtask_cross_board); relations blocks | relates_to | duplicates with the inverse on the other task (relation_exists, relation_cycle of any length, invalid_relation, 50 blocks per task).',
      'Placement: …/move/ {state, after?, before?} with fractional ranks (rank_neighbor_missing names the column\'s head and tail; 422 column_too_large at 5,000 tasks); …/move-board/ {board, state? | state_map?} (move_board_state_invalid) with a new key while the old one keeps resolving.',
      'Archive, restore, duplicate (403 task_archived), delete, …/labels/batch/, …/participants/, …/subscription/, …/events/ and …/activity/ (with the acting agent).',
      'Task lists with state, label (invalid_label_filter), owner (me, a user uuid or unowned), priority, parent_task, milestone, since/until, due_from/due_to (invalid_date_range), include (invalid_filter_value), sort (invalid_sort) and full-text search of titles and descriptions (search_query_too_short, search_query_too_long); GET /v1/plan/me/tasks/.',
      'POST /v1/plan/tasks/bulk/ {operation, items, atomic?}: update, move, archive, restore or label up to 100 tasks (too_many_items; an unknown operation answers invalid_relation), Idempotency-Key required, 30 calls a minute, a result per item.',
      'Organization events tasks.created, tasks.updated, tasks.moved, tasks.archived and tasks.deleted.',
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
