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
    ],
  },
];
