import type { CredentialKind } from './credentials.ts';

/**
 * Which credentials each group of endpoints accepts: the spec's "Method matrix" table, row for row, plus the
 * groups the spec does not name. `authenticate()` reads it for every request (by the request's path), and
 * method-matrix.test.ts walks it against every route of the app, so a new route must fall into a row.
 *
 * The spec's parity commitment (a CLI Bearer token has the same access as an API key of the same user, except
 * the CLI-only endpoints) gives the groups it does not name both credentials. OAuth2 is not offered; its column
 * is kept as the spec has it, for reference.
 */
export interface MatrixRow {
  /** The group as the spec's table names it (or as we name a group it does not). */
  group: string;
  /** Path prefixes of the group: lower case, canonical trailing slash. The longest matching prefix decides. */
  prefixes: readonly string[];
  apiKey: boolean;
  cli: boolean;
  oauth2: boolean;
  /** A row of the spec's table; false for the groups it does not name. */
  spec: boolean;
  /** Requests a platform signs, verified by its signature instead of a credential (the route checks it). */
  signedBy?: 'slack' | 'mattermost' | 'microsoft_teams' | 'google_chat' | 'discord';
}

export const METHOD_MATRIX: readonly MatrixRow[] = [
  { group: '/v1/me/', prefixes: ['/v1/me/'], apiKey: true, cli: true, oauth2: true, spec: true },
  {
    group: '/v1/organization/, /v1/users/, teams and members',
    prefixes: ['/v1/organization/', '/v1/users/', '/v1/teams/'],
    apiKey: true, cli: true, oauth2: false, spec: true,
  },
  {
    group: '/v1/templates/, /v1/checkins/',
    prefixes: ['/v1/templates/', '/v1/checkins/', '/v1/followups/'],
    apiKey: true, cli: true, oauth2: true, spec: true,
  },
  {
    group: '/v1/forms/, kudos, workflows, send-message',
    prefixes: ['/v1/forms/', '/v1/kudos/', '/v1/company-values/', '/v1/workflows/', '/v1/send-message/', '/v1/open-conversation/', '/v1/report-channels/', '/v1/send-email/'],
    apiKey: true, cli: true, oauth2: false, spec: true,
  },
  {
    group: 'agent-reports, health, messages, email',
    prefixes: ['/v1/agent-reports/', '/v1/agent-health/', '/v1/agent/', '/v1/agent-messages/', '/v1/agent-email/', '/v1/agent-webhook/'],
    apiKey: true, cli: true, oauth2: false, spec: true,
  },
  {
    group: '/v1/cli/updates/, /v1/cli/status/, /v1/cli/chat/completions/, /v1/cli/auth/status/',
    prefixes: ['/v1/cli/updates/', '/v1/cli/status/', '/v1/cli/chat/completions/', '/v1/cli/auth/status/'],
    apiKey: true, cli: true, oauth2: false, spec: true,
  },
  { group: '/v1/cli/auth/logout/', prefixes: ['/v1/cli/auth/logout/'], apiKey: false, cli: true, oauth2: false, spec: true },
  // Sign-out everywhere ends CLI tokens and web sessions: like logout, a CLI token (or the web session) asks for it.
  { group: 'sign out everywhere', prefixes: ['/v1/cli/auth/logout-everywhere/'], apiKey: false, cli: true, oauth2: false, spec: false },
  { group: '/v1/platform/*', prefixes: ['/v1/platform/'], apiKey: true, cli: false, oauth2: false, spec: true },
  {
    group: 'API keys, invitations, mood, organization webhooks, deliveries, exchange tokens',
    prefixes: ['/v1/api-keys/', '/v1/invite-user/', '/v1/invitations/', '/v1/mood/', '/v1/webhook-subscription/', '/v1/deliveries/', '/v1/exchange-token/'],
    apiKey: true, cli: true, oauth2: false, spec: false,
  },
  { group: 'Plan (beta)', prefixes: ['/v1/plan/'], apiKey: true, cli: true, oauth2: false, spec: false },
  { group: 'chat platform integrations (admins)', prefixes: ['/v1/integrations/'], apiKey: true, cli: true, oauth2: false, spec: false },
  // Called by Slack and authenticated by its signature, never by a credential of ours: they call no authenticate()
  // (which would refuse both kinds), and answer 401 to anything unsigned (features/chat/slack/requests.ts).
  {
    group: 'Slack request URLs (Slack\'s signature, no credential)',
    prefixes: ['/v1/integrations/slack/events/', '/v1/integrations/slack/interactions/', '/v1/integrations/slack/commands/'],
    apiKey: false, cli: false, oauth2: false, spec: false, signedBy: 'slack',
  },
  // Called by Mattermost: the slash command's token, or Rollcall's own signature in a button's context or a
  // dialog's state (features/chat/mattermost/requests.ts).
  {
    group: 'Mattermost request URLs (the command token or our signature, no credential)',
    prefixes: ['/v1/integrations/mattermost/actions/', '/v1/integrations/mattermost/dialogs/', '/v1/integrations/mattermost/commands/'],
    apiKey: false, cli: false, oauth2: false, spec: false, signedBy: 'mattermost',
  },
  // Called by the Bot Framework with its RS256 token (features/chat/microsoft-teams/requests.ts).
  {
    group: 'Microsoft Teams bot messaging endpoint (the Bot Framework\'s token, no credential)',
    prefixes: ['/v1/integrations/teams/messages/'],
    apiKey: false, cli: false, oauth2: false, spec: false, signedBy: 'microsoft_teams',
  },
  // Called by Google Chat with its RS256 token (features/chat/google-chat/requests.ts).
  {
    group: 'Google Chat app endpoint (Google Chat\'s token, no credential)',
    prefixes: ['/v1/integrations/google-chat/events/'],
    apiKey: false, cli: false, oauth2: false, spec: false, signedBy: 'google_chat',
  },
  // Called by Discord with its Ed25519 signature (features/chat/discord/requests.ts).
  {
    group: 'Discord interactions endpoint (Discord\'s Ed25519 signature, no credential)',
    prefixes: ['/v1/integrations/discord/interactions/'],
    apiKey: false, cli: false, oauth2: false, spec: false, signedBy: 'discord',
  },
];

/** A path's first two segments, as written: "/v1/plan/boards/…" → "/v1/plan". */
function headOf(path: string): string {
  const second = path.indexOf('/', 1);
  const third = second < 0 ? -1 : path.indexOf('/', second + 1);
  return third < 0 ? path : path.slice(0, third);
}

/**
 * The prefixes by their first two segments, each list longest first (the first that matches is the most
 * specific). It runs on every authenticated request: a lookup and one or a few comparisons instead of trying
 * every prefix on a lower-cased copy of the path (which took up to 0.7 µs on a long path, measured).
 */
const BY_HEAD = new Map<string, { prefix: string; row: MatrixRow }[]>();
for (const row of METHOD_MATRIX) {
  for (const prefix of row.prefixes) {
    const head = headOf(prefix.replace(/\/$/, '')).toLowerCase();
    BY_HEAD.set(head, [...(BY_HEAD.get(head) ?? []), { prefix, row }].sort((a, b) => b.prefix.length - a.prefix.length));
  }
}

/**
 * The matrix row of a request path (routes match paths case-insensitively, so this does too: an upper-case
 * path must not slip past an "API key only" row). Null when no row names it.
 */
export function matrixRowOf(path: string): MatrixRow | null {
  const head = headOf(path);
  const candidates = BY_HEAD.get(head) ?? BY_HEAD.get(head.toLowerCase());
  if (!candidates) return null;
  // Paths are nearly always lower case already: compare as they are, then lower-cased.
  for (const { prefix, row } of candidates) if (path.startsWith(prefix)) return row;
  const lower = path.toLowerCase();
  if (lower !== path) for (const { prefix, row } of candidates) if (lower.startsWith(prefix)) return row;
  return null;
}

export const accepts = (row: MatrixRow | null, kind: CredentialKind): boolean => (row === null ? true : kind === 'api_key' ? row.apiKey : row.cli);

/** Where the Model Context Protocol endpoint answers (Streamable HTTP; `mcp/`). */
export const MCP_PATH = '/mcp';

/**
 * The scopes of the areas outside the Plan. A key may carry them beside the Plan's (`tasks:read`, `tasks:write`,
 * `tasks:admin`, in auth/policy.ts): a key with explicit scopes acts only within them (`SCOPE_AREAS`); a key
 * without scopes, and every CLI token, may call everything its owner's role allows.
 */
export const AREA_SCOPES = ['checkins', 'kudos', 'agents', 'email'] as const;
export type AreaScope = (typeof AREA_SCOPES)[number];

export interface ScopeArea {
  /**
   * The scope a key with explicit scopes needs here: an area's own; `tasks` for the Plan, whose gate asks each
   * operation's tasks:read, tasks:write or tasks:admin; `any` for what every credential may call.
   */
  scope: AreaScope | 'tasks' | 'any';
  /** Path prefixes, lower case; the longest matching one decides. `*` stands for one path segment (an id). */
  prefixes: readonly string[];
  /** Only GET (and HEAD) requests; the area's other methods fall to the next match, or to none. */
  readsOnly?: true;
}

/**
 * Which scope each area of the API needs from a key with explicit scopes (docs/cli.md, "What a scoped key may
 * call"; auth/scope-matrix.test.ts walks every route against it). A path no area names takes a credential without
 * scopes: the organization's settings and people, teams' changes, forms, workflows, chat messages, the assistant,
 * webhooks, deliveries, invitations, exchange tokens.
 */
export const SCOPE_AREAS: readonly ScopeArea[] = [
  { scope: 'tasks', prefixes: ['/v1/plan/'] },
  // Check-ins and what answers them: stand-up updates and the pending list of the terminal, templates, mood.
  // A team's insights are its check-ins' numbers: the check-ins' scope, not the directory's.
  { scope: 'checkins', prefixes: ['/v1/checkins/', '/v1/followups/', '/v1/templates/', '/v1/cli/status/', '/v1/cli/updates/', '/v1/mood/', '/v1/teams/*/insights/'] },
  { scope: 'kudos', prefixes: ['/v1/kudos/', '/v1/company-values/'] },
  { scope: 'agents', prefixes: ['/v1/agent-reports/', '/v1/agent-health/', '/v1/agent/', '/v1/agent-messages/', '/v1/agent-webhook/'] },
  // Sending e-mail: an agent's from its inbox, and a person's own.
  { scope: 'email', prefixes: ['/v1/agent-email/', '/v1/send-email/'] },
  // Every credential: who it is and its sign-in, the server's status, its own keys (under the rules of
  // `assertHoldsScopes`), the MCP endpoint (each tool call is judged by its route), and reading the directory
  // (people, teams, report channels) that names whom a kudos, a task or a report is for.
  { scope: 'any', prefixes: ['/v1/me/', '/v1/cli/auth/', '/v1/platform/', '/v1/api-keys/', MCP_PATH] },
  { scope: 'any', readsOnly: true, prefixes: ['/v1/organization/', '/v1/users/', '/v1/teams/', '/v1/report-channels/'] },
];

/** Whether a lower-case path starts with `prefix`, whose `*` matches one path segment. */
function prefixMatcher(prefix: string): (path: string) => boolean {
  if (!prefix.includes('*')) return (path) => path.startsWith(prefix);
  const pattern = new RegExp(`^${prefix.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}`);
  return (path) => pattern.test(path);
}

const BY_PREFIX = SCOPE_AREAS.flatMap((area) => area.prefixes.map((prefix) => ({ prefix, area, matches: prefixMatcher(prefix) }))).sort((a, b) => b.prefix.length - a.prefix.length);

/** The scope area of a request (any case), or null when none names it: then only a credential without scopes may call it. */
export function scopeAreaOf(method: string, path: string): ScopeArea | null {
  const lower = path.toLowerCase();
  const read = method === 'GET' || method === 'HEAD';
  for (const { matches, area } of BY_PREFIX) if (matches(lower) && (read || !area.readsOnly)) return area;
  return null;
}

/**
 * The spec's "Free-plan organizations with CLI Bearer" allow-list, one entry per operation (method and path):
 * a free-plan organization's CLI tokens may call these and nothing else (403 `plan_upgrade_required`). The
 * sign-in endpoints themselves (`/v1/cli/auth/*`, anonymous in the spec's table) stay open so a free-plan user
 * can see and end their session; `PATCH /v1/agent-messages/read/` is the same operation as its POST.
 */
export const FREE_PLAN_CLI_ALLOWED: readonly string[] = [
  'POST /v1/agent-reports/', // 50 per organization per day
  'POST /v1/send-email/', // 20 per organization per day
  'GET /v1/agent-messages/',
  'POST /v1/agent-messages/',
  'POST /v1/agent-messages/read/',
  'PATCH /v1/agent-messages/read/',
  'GET /v1/agent/health/',
  'GET /v1/agent/register/challenge/',
  'POST /v1/agent/register/',
  'POST /v1/agent/claim/',
  'GET /v1/me/',
  'GET /v1/organization/',
  'GET /v1/cli/status/',
  'GET /v1/cli/auth/status/',
  'POST /v1/cli/auth/logout/',
  'POST /v1/cli/auth/logout-everywhere/',
];
/**
 * The MCP endpoint is a way in, not an operation: each of its tool calls runs a REST route, which the allow-list
 * judges, so a free-plan CLI token or self-registered agent connects and calls the tools the list allows.
 */
const FREE_PLAN_SET = new Set([...FREE_PLAN_CLI_ALLOWED, `POST ${MCP_PATH}`]);

/** Whether a method and path is on the free-plan allow-list (the path as requested, any case). */
export const onFreePlanAllowList = (method: string, path: string): boolean => FREE_PLAN_SET.has(`${method} ${path.toLowerCase()}`);

/**
 * The writes an exchange token may make as the member it names (spec "Exchange token": give kudos, fill in a
 * check-in for another user): giving and boosting kudos, and the member's own check-in responses.
 */
export const EXCHANGE_TOKEN_OPERATIONS: readonly { method: string; pattern: RegExp; route: string }[] = [
  { method: 'POST', route: '/v1/kudos/', pattern: /^\/v1\/kudos\/$/i },
  { method: 'POST', route: '/v1/kudos/:uuid/boost/', pattern: /^\/v1\/kudos\/[^/]+\/boost\/$/i },
  ...['POST', 'PUT', 'DELETE'].flatMap((method) =>
    ['checkins', 'followups'].map((base) => ({ method, route: `/v1/${base}/:uuid/responses/`, pattern: new RegExp(`^/v1/${base}/[^/]+/responses/$`, 'i') })),
  ),
];

export const takesExchangeToken = (method: string, path: string): boolean =>
  EXCHANGE_TOKEN_OPERATIONS.some((op) => op.method === method && op.pattern.test(path));
