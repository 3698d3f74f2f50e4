/** The API changelog served at GET /v1/changelog/ (spec "Versioning" item 6). Newest first. */
export interface ChangelogEntry {
  version: string;
  date: string;
  title: string;
  changes: string[];
}

export const CHANGELOG: ChangelogEntry[] = [
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
    ],
  },
];
