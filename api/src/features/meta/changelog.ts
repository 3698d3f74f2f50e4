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
