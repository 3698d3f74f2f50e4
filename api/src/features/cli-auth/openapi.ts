import type { Operation } from '../../http/openapi/types.ts';
import type { JsonSchema } from '../../http/openapi/yup-to-json-schema.ts';
import { dateTime, str, uuid } from '../../http/openapi/components.ts';
import { requestCodeSchema, verifyCodeSchema } from './schema.ts';

const tag = 'Command-line sign-in';
const organizationRef: JsonSchema = { type: 'object', properties: { id: uuid, uuid, name: str } };
const person: JsonSchema = { type: 'object', properties: { uuid, email: str, full_name: str } };

/**
 * What a right code answers: the session (its `lead` field first: the token of verify-code, or `authenticated` for
 * the web session, whose token is in the cookie), or the organizations to choose from.
 */
function signInAnswer(lead: Record<string, JsonSchema>): JsonSchema {
  return {
    oneOf: [
      {
        type: 'object',
        required: [...Object.keys(lead), 'organization'],
        properties: {
          ...lead,
          expires_at: dateTime,
          organization: { type: 'object', properties: { id: uuid, uuid, name: str, plan: { enum: ['free', 'basic', 'pro', 'enterprise'] } } },
          user: person,
        },
      },
      {
        type: 'object',
        required: ['requires_organization_selection', 'organizations'],
        properties: { requires_organization_selection: { const: true }, detail: str, organizations: { type: 'array', items: organizationRef } },
      },
    ],
  };
}

export const tags = [
  {
    name: tag,
    description: [
      'Sign in from a terminal without an API key (docs/cli.md walks through it with curl):',
      '1. `POST /v1/cli/auth/request-code/` `{email}` e-mails a six-digit code, valid 10 minutes and 5 tries. The answer is the same whether or not an account uses the address.',
      '2. `POST /v1/cli/auth/verify-code/` `{email, code}` answers `{token, expires_at, organization, user}`; an address in several organizations first answers',
      '   `{requires_organization_selection: true, organizations}`: send the same code again with `organization_id`.',
      '3. Call the API with `Authorization: Bearer <token>` for 30 days (then 401 `credential_expired`); `POST /v1/cli/auth/logout/` ends it at once.',
      'Both anonymous calls count against the `authentication` budget per client address and per e-mail address (429 `throttled` with Retry-After).',
      'An invited person (`status: invited`) signs in the same way while their invitation is open: the code e-mail says so, and the sign-in accepts the invitation.',
    ].join('\n'),
  },
];

export const schemas: Record<string, JsonSchema> = {
  CliCodeRequested: {
    type: 'object',
    properties: {
      detail: str,
      is_multi_org: { type: 'boolean', description: 'Always false: organizations are named only once the code is verified.' },
      organizations: { type: 'array', maxItems: 0, items: organizationRef },
    },
  },
  CliVerification: signInAnswer({ token: { type: 'string', description: 'The Bearer token, shown once; `rct_` and 48 letters and digits.' } }),
  CliSession: signInAnswer({ authenticated: { const: true } }),
  CliSignedOutEverywhere: { type: 'object', properties: { detail: str, revoked: { type: 'integer', description: 'How many tokens and sessions ended.' } } },
  CliAuthStatus: { type: 'object', properties: { authenticated: { type: 'boolean' }, user: person, organization: organizationRef } },
  Detail: { type: 'object', properties: { detail: str } },
};

export const operations: Operation[] = [
  {
    method: 'post', path: '/v1/cli/auth/request-code/', tag, auth: false, scope: 'authentication', body: requestCodeSchema,
    summary: 'E-mail a six-digit sign-in code (the same answer for every address)', responses: { 200: 'CliCodeRequested' },
  },
  {
    method: 'post', path: '/v1/cli/auth/verify-code/', tag, auth: false, scope: 'authentication', body: verifyCodeSchema,
    summary: 'Trade the code for a 30-day Bearer token, or list the organizations to choose from',
    description: 'Refusals: 400 `invalid_code` (with `extra.attempts_left`), 400 `code_expired` (expired, used, or tried 5 times), 400 `invalid_organization`.',
    responses: { 200: 'CliVerification' },
  },
  { method: 'get', path: '/v1/cli/auth/status/', tag, scope: 'reads', summary: 'Who the credential signs in as (API key or CLI token)', responses: { 200: 'CliAuthStatus' } },
  {
    method: 'post', path: '/v1/cli/auth/session/', tag, auth: false, scope: 'authentication', body: verifyCodeSchema,
    summary: 'Trade the code for a web session: the 30-day token in an HttpOnly, SameSite=Strict cookie (the web app at /app/)',
    description: [
      'The same code, budgets and refusals as verify-code. The token is not in the body: it is set as the `rollcall_session` cookie',
      '(`Path=/v1/; HttpOnly; SameSite=Strict`, and `Secure` when the server requires HTTPS), which the API then takes exactly as it takes that',
      'Bearer token, when the request carries no `X-API-KEY` or `Authorization` header. A write authenticated by the cookie must carry the',
      "`Origin` of Rollcall's own pages; any other answers 403 `cross_origin_request`. `POST /v1/cli/auth/logout/` ends the session and clears the cookie.",
    ].join('\n'),
    responses: { 200: 'CliSession' },
  },
  {
    method: 'post', path: '/v1/cli/auth/logout/', tag, scope: 'authentication', summary: 'Revoke this CLI token or web session at once (CLI tokens only)',
    responses: { 200: 'Detail' },
  },
  {
    method: 'post', path: '/v1/cli/auth/logout-everywhere/', tag, scope: 'authentication',
    summary: "Sign out everywhere: revoke every CLI token and web session of the caller's person (CLI tokens only)",
    responses: { 200: 'CliSignedOutEverywhere' },
  },
];
