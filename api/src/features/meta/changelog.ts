/** The API changelog served at GET /v1/changelog/ (spec "Versioning" item 6). Newest first. */
export interface ChangelogEntry {
  version: string;
  date: string;
  title: string;
  changes: string[];
}

/**
 * Every documented path appears here (a test checks it up to its first parameter): a release's entry says
 * everything it brings. A new operation gets its line in the entry of the release that ships it.
 */
export const CHANGELOG: ChangelogEntry[] = [
  {
    version: '1.8.0',
    date: '2026-11-27',
    title: 'Check-ins answered in chat, what a newcomer and an attacker found, and the web app, Plan client and MCP work of this round',
    changes: [
      // Each area adds its lines below its own marker, so parallel branches merge without touching each other's.
      // defects (issue 34)
      'Fixed (security): a stored secret (webhook signing secrets, bearers, chat tokens) sealed with AES-256-GCM is opened only with its whole 16-byte authentication tag; a cut-short tag was accepted, and Node printed a DEP0182 deprecation warning.',
      'Fixed: after a 413 payload_too_large on the answer page (POST /checkins/answer/{token}) or POST /v1/inbound-email/, the next request on the same keep-alive connection got no answer until the connection timed out (65 s). Every body over its limit (forms, raw MIME, JSON) is now answered 413 with Connection: close, and the connection closes; a Content-Length over the limit is refused before the body is read.',
      'Fixed (security): an HTML-only e-mail could hold the server for minutes, unauthenticated, over the inbound SMTP listener (and POST /v1/inbound-email/): received mail is now parsed on a worker thread with time limits, never on the event loop, in steps whose cost grows with the message and no faster. Received messages are 2 MiB at most (were 10 MiB), refused by size before they are read: POST /v1/inbound-email/ answers 413 payload_too_large (a Content-Length over the limit before the body is sent), the SMTP listener advertises SIZE, answers 552 at MAIL FROM for a larger declared size or at the end of a larger message (not kept), and takes 32 connections at once. A message that cannot be read within 20 s is refused as unreadable (SMTP 554, HTTP 400 invalid_message). The text of an HTML-only reply keeps its lines, paragraphs and quotations (as > lines), so a check-in answered in HTML splits into its answers.',
      // chat (issue 35)
      // check-ins (issue 36)
      // performance (issue 37)
      // web app (issue 38)
      // Plan client (issue 39)
      'Plan, for the DailyBot CLI: its later client (DailybotHQ/cli at edcf7e3; CONTRACT §9 names both commits, the later one wins) works command by command, including the answer fields its commands read and the values they send.',
      'Plan organization labels: GET /v1/plan/labels/ lists the labels you can put on tasks (the organization\'s, with board null, and those of the boards you see; search, include_archived, ordering); POST /v1/plan/labels/ makes an organization label (any person; with board, that board\'s label, by its managers). Every board offers organization labels: its labels list, its board snapshot, its tasks; a task moved to another board keeps them. Their names are unique among the organization\'s live labels. Their creator or an admin changes one (otherwise 403 label_manager_required); an admin deletes one (409 label_in_use while a task carries it).',
      'GET /v1/plan/tasks/board/: the tasks a task list\'s filters keep, laid out as a board: columns (group_by), swimlanes (sub_group_by) and a window of tasks in each cell (tasks_per_group, offset, group, lane).',
      'GET|PUT /v1/plan/views/workspace/: views of no board or project (yours and the shared ones; PUT replaces yours with the array sent, with the list\'s ETag in If-Match). POST …/views/ on a board or project no longer needs If-Match. A view\'s view_mode takes kanban (and list, board, timeline, calendar); a refused mode answers 400 invalid_filter_value; views take sub_group_by.',
      'POST /v1/plan/boards/{board}/reorder/ and POST /v1/plan/projects/{project}/reorder/ {before | after} place a board or project in its order (both: 400 reorder_anchor_invalid; a board\'s project moves it there); boards and projects carry position. GET /v1/plan/boards/{board}/move-preview/?project= says what moving a board would change, writing nothing.',
      'POST …/attachments/presign/ answers the reserved file as attachment {uuid, …} as well as attachment_uuid. GET …/tasks/{task}/participants/ lists watchers too (role watcher), and DELETE …/participants/{user}/ takes a watcher off.',
      'Favorites: rows carry target_type and target_uuid besides object_type and object_uuid, and rank; views can be pinned (target_type view).',
      'Notifications: PUT /v1/plan/me/notifications/ takes {items: [{kind, chat, email}]} (and the older {kind, enabled}), with where chat goes (your direct messages or a public channel); GET /v1/plan/notifications/catalog/ answers each kind with its scope (personal or org), and kinds; GET /v1/plan/channels/ answers channel types and takes search (members see public channels only); notification routes and scheduled reports take scopes as {type, uuids} and channels as {external_id}; a report\'s channel may be null; send-test with ?dry_run=true names the channel and recipients.',
      'Plan lists: GET /v1/plan/boards/{board}/board/ and GET /v1/plan/tasks/{task}/children/ take sort; task lists sort by start_date and completed_at too; GET /v1/plan/me/tasks/ takes scope (owned, participating, involved); a bulk dry run lists the items it would refuse (refused). PATCH on a board or project member with an empty body answers the membership; members carry their grant; people carry their names; relations carry their direction; projects carry board_count; GET /v1/plan/entitlements/ adds the client\'s summary.',
      // MCP (issue 40)
    ],
  },
  {
    version: '1.7.0',
    date: '2026-11-25',
    title: 'Check-ins that run themselves, the web app at /app/, an MCP server for agents, the DailyBot client\'s Plan calls, security and concurrency fixes, and what a newcomer found',
    changes: [
      'Fixed (security): a key with explicit Plan scopes could lift its own scopes (PATCH /v1/api-keys/{uuid}/) or mint an unscoped key (POST /v1/api-keys/). Creating a key now takes a personal key without scopes or a CLI token; giving a key scopes, or regenerating one, takes a credential that holds every scope that key will carry; 403 insufficient_scope otherwise.',
      'Agent keys, organization keys and keys with explicit scopes no longer govern the organization, whatever their owner\'s role: PATCH /v1/organization/, /v1/invite-user/, role, activation and other people\'s profiles on PATCH /v1/users/{uuid}/, /v1/api-keys/, /v1/webhook-subscription/, /v1/deliveries/, workflow definitions, company values, kudos settings and /v1/exchange-token/ (issuing, presenting, the audit) answer 403 insufficient_scope. They keep everything else their owner\'s role allows.',
      'A request that sends both X-API-KEY and Authorization: Bearer answers 400 credential_ambiguous (the key used to win silently).',
      'POST /v1/api-keys/ refuses an expires_at that is not in the future (400 naming the field; it was accepted and the key was born expired).',
      'An exchange token is presented only by the admin who asked for it, with a personal key without scopes or a CLI token (another admin: 401 invalid_credentials; an agent, organization or scoped key: 403 insufficient_scope). It stays usable any number of times within its 300 seconds, each use audited.',
      'Fixed: junk X-Forwarded-Proto or X-Forwarded-Host (X-Forwarded-Proto: 1, X-Forwarded-Host: a b) on a list with a next page answered 500, and X-Forwarded-Host: a/b put another host in next. Forwarded headers are now believed only from the proxies TRUST_PROXY names (off by default: a list of addresses and CIDR ranges, or a hop count), malformed values are ignored, and links come from PUBLIC_URL when it is set.',
      'Fixed: a client could rotate X-Forwarded-For to escape the per-address sign-in budget (20 an hour); without a trusted proxy the address is the connection\'s. A long client address no longer overflows the rate-limit key on PostgreSQL (500).',
      'Operators: with REQUIRE_HTTPS behind a TLS proxy, set TRUST_PROXY to that proxy (its X-Forwarded-Proto is ignored otherwise, and every request answers 403 https_required); the start warns.',
      'Fixed: a user deactivated by an operator (rollcall admin user deactivate) kept working for up to 60 seconds on SQLite; the server now notices any operator command\'s change within a quarter of a second (a plan, the beta and exchange-token switches too), as it does for changes made through the API.',
      'Documented: webhook delivery (organization webhooks, agent webhooks, workflow requests) is at least once, with one server process as with several: a delivery may come again with the same webhook-id; deduplicate by it.',
      'Idempotency-Key: the documentation now states the rule the server applies, 8 to 128 printable ASCII characters without spaces (! to ~); the refusal says so too.',
      'POST /v1/cli/auth/session/ {email, code, organization_id?}: the web app\'s sign-in, with the e-mailed code, budgets and refusals of verify-code; the 30-day token is set as the rollcall_session cookie (Path=/v1/; HttpOnly; SameSite=Strict; Secure when HTTPS is required) instead of in the body. The API takes the cookie exactly as that Bearer token when the request carries no X-API-KEY or Authorization header; a write authenticated by it from another Origin, or without one, answers 403 cross_origin_request. POST /v1/cli/auth/logout/ also clears the cookie.',
      'GET /v1/checkins/{uuid}/responses/: a participant now reads all of the check-in\'s responses, as its team report already shows them (members and guests read only their own before); admins and managers read every check-in\'s, and with privacy: private members and guests read only their own. A former participant still reads their own answers. Anonymous check-ins still name no author.',
      'POST /v1/cli/auth/logout-everywhere/: revokes every CLI token and web session of the caller\'s person ({detail, revoked}).',
      'Identical writes sent at once (reactions, favorites, members, company values, mood, the first report of a new agent name) answer as if sent one after another: the idempotent answer or the refusal, never 500. A write PostgreSQL cancels for a deadlock or a serialization failure is run again; a unique conflict that persists answers 409 concurrent_write.',
      'Saved-view writes check their ETag atomically: of creations sent at once with one list ETag, one answers 201 and the others 412 precondition_failed.',
      'Ranks stay unique within a column: a move between two tasks that are no longer adjacent lands right after the first of them.',
      'An Idempotency-Key is held only while its request\'s transaction runs: after a crash or restart, the retry runs at once instead of answering 409 idempotency_in_progress for up to 120 seconds.',
      'A presigned upload URL takes one completed upload: a later PUT answers 404 and replaces nothing. A multipart upload cut off before its end answers 400 (was 500).',
      'A NUL character (%00) in any query parameter answers 400 invalid_filter_value on every route; a message POST /v1/inbound-email/ cannot parse (a 1 MB header line) answers 400 invalid_message, and 554 over SMTP.',
      'GET /v1/agent/claim/?claim_token=: the claim_url of a self-registration now opens. A browser gets a page naming the agent and the one request that claims it; a script gets {agent_name, org_name, detail, claim: {method, url, body}}; 404 once claimed (the claim itself stays POST /v1/agent/claim/).',
      'POST /v1/agent-reports/ answers co_authors_unresolved: the co_authors identifiers, as sent, that named no active member of the organization (they are still ignored; co_authors keeps its shape).',
      'An attachment whose bytes are gone from storage (a data directory restored without them, an object removed from the bucket) answers 410 attachment_content_missing, permanent, instead of 503 attachment_storage_unavailable ("retry later") for ever.',
      'rollcall admin backup copies the Plan files of the disk store (attachments/, each file\'s SHA-256 in the manifest) and rollcall admin restore checks and restores them; with ATTACHMENT_STORAGE=s3 the backup says the bucket is backed up on its own side.',
      'rollcall serve: a busy PORT, a second server on the same SQLite DATA_DIR and a PostgreSQL that refuses (unreachable, wrong password, unknown user, missing database) each stop the start with one line naming the variable to fix, before anything is created; a generated admin key that was never shown gets a new secret, printed on the next start. rollcall health takes --unhealthy (--degraded still works).',
      'The DailyBot client\'s field names beside ours (aliases, one service each): members and participants {user_uuid}, task labels {mode, label_uuids}, comment replies {parent_comment}, favorites {target_type, target_uuid}, milestones {date}; projects take start_date, target_date and health, goals period_start, period_end and status; saved views view_mode and group_by; attachments a caption (multipart) and a rename (PATCH …/attachments/{attachment}/ {filename, caption}); scheduled-report recipients by user uuid.',
      'The agent a write is made for may be named by X-Dailybot-Agent-Name (as X-Service-Agent-Name) or by a JSON body\'s agent_name. A dry run needs no Idempotency-Key (bulk included). /v1/plan/tasks/bulk/ takes create (on board) and the client\'s operation names (set_priority, set_owner, assign, set_due_date, set_state, labels).',
      'New doors: /v1/plan/me/activity-cursor/ (GET, PUT), /v1/plan/me/recents/ with POST /v1/plan/boards/{board}/visit/, /v1/plan/me/tasks/counts/, /v1/plan/me/briefing/ (GET, PUT) with /v1/plan/me/briefing/preview/ and /v1/plan/me/briefing/send-test/, /v1/plan/me/notifications/ (GET, PUT: kinds on or off, honoured by every notification), /v1/plan/inbox/unread-count/ (and the inbox\'s mentioned and type filters), /v1/plan/labels/{label}/ (GET, PATCH, DELETE), /v1/plan/milestones/, /v1/plan/projects/updates/, /v1/plan/attachments/resolve/?ids=.',
      'Milestones: POST …/milestones/{milestone}/complete/, reopen/, archive/ and restore/; files on milestones and on boards (…/attachments/, as on projects); task files in one multipart request too (5 MiB). Presign answers an upload_url on the task\'s own content path (PUT or POST /v1/plan/tasks/{task}/attachments/{attachment}/content/?token=); /v1/uploads/{attachment}/ still takes the bytes.',
      'Notification routes also at /v1/plan/notification-routes/ (the client\'s path), with a name, enabled (a disabled route sends nothing), kinds (one kind, as a list) and a channel given as an object; …/send-test/ (dry run: nothing sent) and …/deliveries/. Scheduled reports: …/runs/ (each run recorded) and …/send-test/ (run/ under the client\'s name, with a dry run).',
      'Saved views: PUT /v1/plan/boards/{board}/views/ and /v1/plan/projects/{project}/views/ replace your personal views with an array (If-Match: the list\'s ETag); PATCH and DELETE of /v1/plan/views/{view}/ check If-Match when it is sent. POST and DELETE /v1/plan/tasks/{task}/subscription/ follow and stop following. GET /v1/plan/tasks/{task}/?include= adds attachments, comments and activity (first 20, as list envelopes) and comment_count. GET …/delta/ takes updated_since (a time within 7 days, or a cursor).',
      'Structure changes (boards, states, projects, goals, memberships, goal links) need tasks:admin: agent and organization keys get 403 insufficient_scope with extra.required_scope. Every 429 and 503 carries a numeric Retry-After.',
      'Check-ins now ask each participant at the check-in\'s days and time, in its time zone or each participant\'s own (use_participant_timezone), every frequency weeks, from start_on to end_on: by e-mail (a reply address and a web link of its own) and, where Slack is connected, a direct message with an Answer button. Nobody is asked twice a day, nor after answering, nor while on time off. Reminders follow reminders_max_count and reminders_frequency_time until time_for_report or the end of the person\'s day.',
      'GET /checkins/answer/{token} and POST /checkins/answer/{token}: the web answer page a prompt links to (HTML, works without JavaScript, en/es/pt). The token answers one check-in for one person on one day, and edits that answer until the day\'s report is sent (then 409); it expires 12 hours after the day ends (404 page). Content-Security-Policy, X-Frame-Options: DENY, an anti-forgery value (403 page without it).',
      'A reply to a prompt e-mail (inbound SMTP or POST /v1/inbound-email/) becomes the person\'s answer: numbered lines or one paragraph per question; a reply that does not split is kept whole as the first answer and the person is told by e-mail. Matched by the prompt\'s reply address or In-Reply-To, never by the sender alone.',
      'The report: at time_for_report (the day\'s last minute when unset) to every report channel through the chat platform, or by e-mail to the participants without one; each answer as it comes with send_reports_one_by_one. Organization events checkin.prompted and checkin.report.sent.',
      'GET /v1/checkins/{uuid}/runs/: each day\'s run (who was asked and reminded, who answered, the reports and where they went, with delivery status). POST /v1/checkins/{uuid}/answer-link/: a web answer link for the caller\'s answer of today (rollcall checkins today).',
      'Model Context Protocol: POST /mcp (Streamable HTTP, stateless) serves tools for agents (report, health_check, read_messages, acknowledge_messages, send_email, list_checkins, answer_checkin, give_kudos, search_tasks, list_board_tasks, list_board_states, board_snapshot, board_delta, get_task, create_task, update_task, move_task, comment_task). Each tool runs its REST call with the same credential, plan checks, scopes and budgets; a refusal is a tool error carrying the API\'s code and detail (a 429 its retry_after). `rollcall mcp` is a stdio bridge to it (docs/mcp.md); resources for a board\'s tasks and a check-in\'s answers of the day, and the prompt standup_from_reports.',
      'GET /v1/plan/tasks/{task}/?include=participants,relations,children: each now comes as a list envelope {count, next: null, previous: null, results} (all of them), as attachments, comments and activity do; the task lists keep plain arrays.',
      'Changed: DELETE /v1/plan/projects/{project}/milestones/{milestone}/ retires the milestone as POST …/archive/ does (200 with the milestone, archived_at set; its tasks keep pointing at it; POST …/restore/ brings it back), as the DailyBot client expects. It used to delete it and detach its tasks (204).',
      'Plan labels carry a description (up to 1,000 characters, \'\' when none) and take is_archived on POST and PATCH (/v1/plan/labels/{label}/ and /v1/plan/boards/{board}/labels/…): true archives, false restores (a live label of the board must not have its name: 400 naming name), as the DailyBot client sends them.',
      'GET /v1/plan/boards/{board}/delta/: the 400 delta_window_expired of a cursor (or updated_since) out of the 7-day window carries extra.full_resync_required: true, which the DailyBot client checks before reading the snapshot again.',
      'A key with explicit scopes that lacks the one an endpoint needs: its 403 insufficient_scope carries extra.required_scope (tasks:read, tasks:write or tasks:admin), as the structure refusals already did.',
      'MCP attribution: the answer to initialize gives an Mcp-Session-Id carrying the client\'s own name (clientInfo.name); without an X-Service-Agent-Name header, a tool\'s Plan writes are attributed to that name, as the header would (never for an agent key). Nothing is stored: any process reads it (docs/mcp.md, Attribution).',
    ],
  },
  {
    version: '1.6.0',
    date: '2026-11-23',
    title: 'Plan (beta): saved views, favorites, notifications, scheduled reports, files and reactions',
    changes: [
      'Saved views of boards and projects (personal, shared, board_default) on …/views/ and /v1/plan/views/{view}/: GET answers an ETag (304 for If-None-Match), writes need If-Match (428 precondition_required, 412 precondition_failed); 403 view_visibility_forbidden, 400 view_limit_reached (20 personal views per board).',
      'GET|POST /v1/plan/me/favorites/ and DELETE …/{favorite}/: tasks, boards and projects, at most 50 (favorite_limit_reached).',
      'The Plan inbox (/v1/plan/inbox/, /v1/plan/inbox/summary/, /v1/plan/inbox/read-all/, and read/unread per notification) and notification routes (/v1/plan/notifications/routes/ {kind, channel, scope?}: a chat channel or "email"; 10 per organization: notification_routes_limit_reached; unknown_notification_kind, channel_not_found, route_scope_not_org_visible). Due-date notices task.due_soon, task.due (new in the catalogue) and task.overdue.',
      'Scheduled reports (/v1/plan/reports/, preview, run): ISO weekdays, HH:MM, an IANA time zone, a chat channel and/or e-mail recipients; kind daily, week_start or week_end; invalid_schedule with extra.parameter; 10 per organization (report_schedules_limit_reached). Each says per board what was done, what is in progress and what is blocked.',
      'Attachments on projects, goals and project updates (one multipart request, 5 MiB), and the presign → PUT /v1/uploads/{attachment}/ → confirm upload (25 MiB) with attachment_not_ready; the content decides the type (attachment_invalid_type), attachment_too_large, attachment_limit_reached (50), attachment_delete_forbidden, 503 attachment_storage_unavailable; downloads as attachments with X-Content-Type-Options: nosniff; files on disk under DATA_DIR or in an S3-compatible store (ATTACHMENT_STORAGE=s3).',
      'Reactions on project updates and comments: one emoji (reaction_invalid_emoji), at most 20 different ones (reaction_limit_reached).',
      'Comments on tasks: /v1/plan/tasks/{task}/comments/ {body, parent?} and …/comments/{comment}/ (GET, PATCH {body}, DELETE): at most 10,000 characters (comment_body_too_long), replies one level deep (invalid_relation), edited and deleted by their author only (comment_not_author; a deletion takes the replies, files and reactions); <@user-uuid> mentions of people who may read the task notify them (task.mentioned), a reply its parent\'s author (task.comment_replied), the task\'s followers task.commented. Reactions on …/comments/{comment}/reactions/, files on …/comments/{comment}/attachments/ (one multipart request, the author only).',
      'Task files: /v1/plan/tasks/{task}/attachments/presign/ → PUT the bytes to upload_url → …/attachments/{attachment}/confirm/ (25 MiB; attachment_not_ready before), list, read, content, delete (the uploader or an admin: attachment_delete_forbidden); deleting a task removes its files and its comments\' files.',
      'Task notifications, written with the change: task.assigned to a new owner, task.unassigned to the one before, task.state_changed to the task\'s followers (owner, participants, creator and subscribers, unless they opted out); due-date notices cover every task with an owner.',
    ],
  },
  {
    version: '1.5.0',
    date: '2026-11-23',
    title: 'Keeping a local copy of a board, search, activity, pulse and timeline',
    changes: [
      'GET /v1/plan/boards/{board}/board/: the board as a client keeps it (the board, its states, labels and members, its live tasks in board order) with a delta_cursor. GET /v1/plan/boards/{board}/delta/?cursor= answers the changes after the cursor in order (created, updated, moved, archived, restored; deleted as tombstones), page_size at a time with the cursor to continue from and has_more; 240 calls a minute per actor. A cursor older than 7 days, or one whose next changes were pruned, answers 400 delta_window_expired; a malformed or another board\'s cursor 400 invalid_filter_value. The change log keeps 7 days (pruned hourly).',
      'GET /v1/plan/search/?q= finds tasks (title, description, KEY-n), boards (key, name, description) and projects (name, description) whose words start with every word of q, among what the caller sees (type=, include_archived=; search_query_too_short, search_query_too_long).',
      'GET /v1/plan/activity/: what changed across the boards, projects and goals the caller sees, newest first, with the person and the acting agent (board, project, actor, object_kind, start_date/end_date).',
      'GET /v1/plan/pulse/: per state and per owner, tasks now, open, and created, completed, changed and archived over a period (default the last 7 days). GET /v1/plan/timeline/: live tasks with a start or due date whose span overlaps the days asked.',
    ],
  },
  {
    version: '1.4.0',
    date: '2026-11-23',
    title: 'Command-line sign-in, the command-line endpoints and exchange tokens',
    changes: [
      'Command-line sign-in: POST /v1/cli/auth/request-code/ e-mails a six-digit code (10 minutes, 5 tries; the same answer whether or not an account uses the address), POST /v1/cli/auth/verify-code/ answers a 30-day Bearer token or the organizations to choose from, GET /v1/cli/auth/status/ for an API key or a token, POST logout/ (tokens only) revokes at once. Both anonymous calls count against the authentication budget per client address and per e-mail address.',
      'Command-line client endpoints: GET /v1/cli/updates/ (the client\'s update manifest), POST /v1/cli/updates/ (a stand-up update written into your check-ins scheduled today), GET /v1/cli/status/ (check-ins waiting for your answer, with their questions).',
      'POST /v1/cli/chat/completions/: the operator\'s OpenAI-compatible model (LLM_BASE_URL) with your own data as context, or a built-in assistant for pending check-ins, blockers, your answers, your agents\' reports and kudos; session_id keeps the conversation; 30 questions per minute per credential.',
      'Exchange tokens: POST /v1/exchange-token/ (admins, once an operator turns them on) answers a 300-second token; X-Exchange-Token makes an admin\'s kudos and check-in responses act as that member, audited with both (GET /v1/exchange-token/audit/ for admins).',
      'The method matrix decides which credential each endpoint takes, and the OpenAPI document says so per operation: /v1/platform/* API keys only, /v1/cli/auth/logout/ CLI tokens only. A free-plan organization\'s CLI tokens reach only the spec\'s allow-list (403 plan_upgrade_required elsewhere); its daily caps count the Bearer transport only.',
      'The rollcall command is also a client: login, logout, status, me, update, report, health and messages, each with --json.',
      'A database that cannot be reached, a lost connection or a statement past its timeout answers 503 database_unavailable with Retry-After (was a 500, or a request that hung); /readyz answers 503 meanwhile.',
      'Several server processes may share one PostgreSQL database: hourly budgets, Plan minute ceilings and free-plan daily caps are exact across them and kept through a crash (RateLimit headers count what every process granted); a revoked key, a deactivated user or a plan change takes effect on every process at once.',
      'Fixed: event workflows triggered by tasks.* events (created, updated, moved, archived, restored, deleted) run on every task change, whether or not a webhook subscription wants the event.',
      'Fixed: a webhook subscription\'s subscribed_objects matches what each event is about as it is sent (a check-in response\'s check-in and author, a form response\'s form, the people, teams and company value of a kudos, the person and team of organization events, a task and its board); an anonymous response or kudos never matches its author.',
      'Fixed: POST /v1/webhook-subscription/sample/ sends bodies shaped as the real events.',
      'Fixed: an e-mail the SMTP server refuses for good (a 5xx reply but 503, such as 550 or 553 for the recipient) or with no valid recipient fails at once with its reason in /v1/deliveries/ ("permanent, not retried: …"); 4xx replies and 503 are retried; a message refused for some recipients names them in its attempt.',
      'Fixed: the command-line assistant answers about your open Plan tasks (owned by you, not done or canceled, due dates first) and says when the organization\'s Plan beta is off.',
    ],
  },
  {
    version: '1.3.0',
    date: '2026-11-23',
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
    version: '1.2.0',
    date: '2026-11-23',
    title: 'The Plan (beta), and input that is refused instead of failing',
    changes: [
      'Plan (beta) under /v1/plan/, marked x-beta in the OpenAPI document. Every call passes, in order: the credential (the key plan checks answer 401 here), 402 plan_upgrade_required until the organization has the beta (GET /v1/plan/entitlements/ always answers), guest_not_allowed, person-only checks (insufficient_scope, actor_required), the key\'s scopes tasks:read / tasks:write / tasks:admin, the read-only switch (503 feature_temporarily_read_only on writes) and per-actor minute ceilings (120 reads, 60 writes, 30 bulk, 240 delta; 429 throttled).',
      'Plan writes take Idempotency-Key (8–128 characters; answers kept 24 hours and replayed with Idempotency-Replayed: true; idempotency_in_progress, idempotency_key_payload_mismatch) and X-Service-Agent-Name (invalid_agent_attribution); destructive calls take ?dry_run=true.',
      'Plan goals on /v1/plan/goals/ (goal_name_conflict, linked projects), projects on /v1/plan/projects/ (project_name_conflict, archive, members with last_grant_cannot_be_removed, milestones, updates with update_body_too_long and update_not_author), boards on /v1/plan/boards/ (keys with duplicate_board_key, visibility org | members, members, mentionables), a board\'s states (default set, reorder, archive with migrate_to; states_reorder_invalid, state_in_use, last_done_state, board_not_initialized, column_too_large) and labels (archive, label_in_use); free and basic plans keep 3 live boards and 1 live project (402 task_boards_limit_reached, task_projects_limit_reached); GET /v1/plan/channels/?type= and /v1/plan/notifications/catalog/.',
      'Date-times in request bodies (expires_at and the like) must exist and may carry an offset (stored and shown in UTC); JSON nested deeper than 64 levels and NUL characters are refused with 400 naming the field; keys named like Object.prototype members are ordinary keys.',
      'GET /v1/report-channels/ with no chat platform connected answers 200 {channels: [], total: 0}; marking agent messages read counts only the messages it changed; a stored secret the server\'s ENCRYPTION_KEY cannot open fails its delivery at once with the reason (a request that must use it answers 503 stored_secret_unreadable).',
    ],
  },
  {
    version: '1.1.0',
    date: '2026-11-23',
    title: 'Kudos, forms and workflows',
    changes: [
      'Kudos: POST /v1/kudos/ to people and teams (teams expand to their active members, the giver left out; users_receivers and teams_receivers), 400 self_kudos, a daily limit per giver set per organization (406 kudos_daily_limit, default 10, GET|PATCH /v1/kudos/settings/), anonymous kudos, boosts, GET /v1/kudos/?filter=kudos_received|kudos_given, /v1/kudos/timeline/, /v1/kudos/organization/ (admins) and /v1/kudos/wall-of-fame/?period=week|month|quarter|year|all.',
      'Company values: GET /v1/company-values/ for everyone; POST, PATCH and DELETE for admins.',
      'Forms: GET /v1/forms/ with filter, owner, owner_user_ids, order, is_ascend and include=questions; GET /v1/forms/form-owners/; POST /v1/forms/create/, detail, config, archive and questions; responses with states, transitions by role, state_history and a final state that locks the response; anonymous forms.',
      'Workflows under /v1/workflows/: api_trigger, schedule (cron in the workflow\'s time zone) and event triggers; send_message, send_email and signed http_request actions through the delivery outbox; POST …/trigger/ (202, workflow triggers budget) and runs with status, per-action results and a log.',
      'Organization events kudos.posted and forms.response.created|updated|deleted are sent to webhooks and start event workflows; a kudos is announced on the connected chat platform.',
    ],
  },
  {
    version: '1.0.0',
    date: '2026-11-22',
    title: 'First self-hosted release of the v1 API',
    changes: [
      'Conventions: JSON everywhere, every path also without its trailing slash, lists as {count, next, previous, results} (page/page_size or limit/offset), errors as {detail, code, extra?} and body validation as a field map; an object of another organization answers 404 like a missing one.',
      'Credentials: API keys in X-API-KEY and CLI Bearer tokens, with the same answers; hourly budgets per named scope with RateLimit-Policy and RateLimit headers, 429 with Retry-After.',
      'Where to start: GET / and GET /v1/ link to the interactive reference at /docs (with /docs/init.js and /docs/static/ assets), the OpenAPI 3.1 document at /v1/openapi.json (a request and a response example for every operation) and this changelog at /v1/changelog/.',
      'Operations: /healthz, /readyz (database and migrations) and Prometheus /metrics without a credential; GET /v1/platform/status/ (server version and enabled features, API keys only).',
      'GET /v1/me/; GET|PATCH /v1/organization/ (name, time zone, chat platform connection).',
      "API keys: create, list, detail, rename, regenerate and revoke under /v1/api-keys/ with the spec's role rules; agent and organization keys.",
      'Users: GET /v1/users/ and GET|PATCH /v1/users/{uuid}/ (include_email, deactivation); POST /v1/invite-user/ (e-mailed invitations, resend) and POST /v1/invitations/accept/.',
      'Teams: CRUD under /v1/teams/, members as a bare array, POST …/member/ and DELETE …/member/{user_uuid}/.',
      'Check-ins (also under /v1/followups/, with /v1/followups/create/): list, POST /v1/checkins/create/, detail, config, archive, questions and their order, responses with history, include_summary and include_pending_users; built-in /v1/templates/; mood on /v1/mood/track/.',
      'Agents: reports on /v1/agent-reports/ merged into co-authors’ stand-ups, health checks on /v1/agent-health/ that hand out pending messages, every agent’s last status on /v1/agent/health/, messages on /v1/agent-messages/ (read with /v1/agent-messages/read/), e-mail with replies threaded back as messages on /v1/agent-email/send/, webhook push with /v1/agent-webhook/ (X-Webhook-Secret and Standard Webhooks signatures).',
      'Agent self-registration (off by default): /v1/agent/register/challenge/, /v1/agent/register/ and /v1/agent/claim/.',
      'E-mail: POST /v1/send-email/ (caller-scoped); replies received by the built-in SMTP listener or posted by a mail provider as raw MIME to /v1/inbound-email/.',
      'Chat platforms (Slack, Microsoft Teams, Discord, Google Chat): POST /v1/send-message/ with threads and edits, /v1/open-conversation/ and /v1/report-channels/.',
      'Organization webhooks: /v1/webhook-subscription/ (list, create, delete) and /v1/webhook-subscription/sample/; events followups.response.completed|updated|deleted (anonymous check-ins carry no user) and organization.user_* / team_user_*.',
      'Deliveries: every outgoing webhook, e-mail and chat message goes through an outbox with retries (5 s, 5 min, 30 min, 2 h, 5 h, 10 h); admins list them on /v1/deliveries/ with each attempt and redeliver one.',
    ],
  },
];
