/** The API changelog served at GET /v1/changelog/ (spec "Versioning" item 6). Newest first. */
export interface ChangelogEntry {
  version: string;
  date: string;
  title: string;
  changes: string[];
}

export const CHANGELOG: ChangelogEntry[] = [
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
