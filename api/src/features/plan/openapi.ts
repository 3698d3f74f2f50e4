import type { Operation } from '../../openapi/types.ts';
import type { JsonSchema } from '../../openapi/yup-to-json-schema.ts';
import { describePlan } from './routes.ts';
import { scopeTable } from './frame/scope-table.ts';
import type { PlanOperation } from './frame/routes.ts';

/** The Plan's part of the OpenAPI document, generated from the route declarations (frame/routes.ts). */
const PLAN_ERRORS: Record<number, string> = {
  401: 'Credential refused (`credential_absent`, `credential_malformed`, `credential_expired`, `invalid_credentials`; on this surface also `api_key_owner_inactive`, `plan_free_api_keys_forbidden`, `plan_missing_core_api_integrations`)',
  402: '`plan_upgrade_required` until the organization has the Plan beta; `task_boards_limit_reached` / `task_projects_limit_reached` at the plan ceiling',
  403: '`guest_not_allowed`; `insufficient_scope` (key scopes, or an agent/organization key on a person-only endpoint); role refusals',
  409: 'Conflict (`idempotency_in_progress`, `idempotency_key_payload_mismatch`, and the operation\'s own codes)',
  429: 'Minute ceiling per actor (`throttled`, `extra.retry_after`, Retry-After)',
  503: '`feature_temporarily_read_only`: Plan writes are refused during an incident; reads continue',
};

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const archived = { archived_at: nullableDateTime, is_archived: { type: 'boolean' } };
const times = { created_at: dateTime, updated_at: dateTime };
const visibility = { enum: ['org', 'members'] };
const person = { type: 'object', properties: { uuid, id: uuid, full_name: str } };

export const planSchemas: Record<string, JsonSchema> = {
  PlanEntitlements: {
    type: 'object',
    properties: {
      plan: str, enabled: { type: 'boolean' }, read_only: { type: 'boolean' }, features: { type: 'object' },
      limits: { type: 'object', description: 'Ceilings; null is unlimited' }, usage: { type: 'object' }, rate_limits: { type: 'object' },
      credential: { type: 'object', properties: { scopes: { type: 'array', items: str }, acts_as_person: { type: 'boolean' } } },
    },
  },
  PlanGoal: { type: 'object', properties: { uuid, id: uuid, name: str, description: str, created_by: nullableUuid, ...archived, ...times } },
  PlanProject: { type: 'object', properties: { uuid, id: uuid, name: str, description: str, goal: nullableUuid, visibility, created_by: nullableUuid, ...archived, ...times } },
  PlanMilestone: { type: 'object', properties: { uuid, id: uuid, project: uuid, name: str, description: str, target_date: { type: ['string', 'null'], format: 'date' }, ...times } },
  PlanProjectUpdate: {
    type: 'object',
    properties: { uuid, id: uuid, project: uuid, body: str, health: { enum: ['on_track', 'at_risk', 'off_track', null] }, author: person, agent_name: nullableStr, ...times, edited_at: nullableDateTime },
  },
  PlanBoard: { type: 'object', properties: { uuid, id: uuid, key: str, name: str, description: str, visibility, project: nullableUuid, created_by: nullableUuid, ...archived, ...times } },
  PlanMember: { type: 'object', properties: { uuid, id: uuid, user: person, role: { enum: ['manager', 'member'] }, created_at: dateTime } },
  PlanPerson: person,
  PlanState: {
    type: 'object',
    properties: {
      uuid, id: uuid, board: uuid, name: str, category: { enum: ['backlog', 'todo', 'in_progress', 'done', 'canceled'] }, position: { type: 'integer' },
      color: str, is_default: { type: 'boolean' }, ...archived, ...times,
    },
  },
  PlanLabel: { type: 'object', properties: { uuid, id: uuid, board: uuid, name: str, color: str, ...archived, ...times } },
  PlanChannel: { type: 'object', properties: { external_id: str, id: str, name: str, type: { enum: ['public', 'private', 'personal'] }, platform: str } },
  PlanNotificationKind: {
    type: 'object',
    properties: { key: str, name: str, description: str, object_type: str, channels: { type: 'array', items: { enum: ['inbox', 'email', 'chat'] } }, default_enabled: { type: 'boolean' } },
  },
  PlanDryRun: {
    type: 'object',
    description: 'The answer of `?dry_run=true`: what the operation would have answered and changed; nothing was kept.',
    properties: {
      dry_run: { const: true }, status: { type: 'integer' }, result: {},
      changes: { type: 'array', items: { type: 'object', properties: { object_kind: str, object_uuid: uuid, change_kind: str, changed_fields: { type: 'array', items: str } } } },
    },
  },
};

function describe(op: PlanOperation): string {
  const lines = [`Beta. Scope: \`${op.scope}\`; minute ceiling: ${op.ceiling}.`];
  if (op.person) lines.push('Person only: agent and organization keys get 403 `insufficient_scope`.');
  for (const [name, value] of Object.entries(op.personQuery)) lines.push(`\`${name}=${value}\` needs a person (400 \`actor_required\`).`);
  if (op.idempotency !== 'none') lines.push(`Idempotency-Key ${op.idempotency} (8–128 characters; replays answer \`Idempotency-Replayed: true\`).`);
  if (op.destructive) lines.push('`?dry_run=true` answers what would happen (PlanDryRun) and changes nothing.');
  return [op.description, ...lines].filter(Boolean).join(' ');
}

export function planOperations(): Operation[] {
  return describePlan().operations.map((op) => {
    const answer = op.status === 204 ? null : op.list ? pageOf(op.response) : op.response;
    const responses: Operation['responses'] = { [op.status]: answer };
    // A dry run answers 200 with PlanDryRun, beside (or instead of) the operation's own answer.
    if (op.destructive) responses[200] = op.status === 200 && answer !== null ? { oneOf: [typeof answer === 'string' ? { $ref: `#/components/schemas/${answer}` } : answer, { $ref: '#/components/schemas/PlanDryRun' }] } : 'PlanDryRun';
    return {
      method: op.method,
      path: op.path,
      summary: op.summary,
      tag: op.tag,
      scope: `plan-${op.ceiling}`,
      body: op.body,
      query: [...op.query, ...(op.destructive ? [{ name: 'dry_run', description: 'true: run, answer, and roll back' }] : [])],
      headers: [
        ...(op.idempotency === 'none' ? [] : [{ name: 'Idempotency-Key', description: '8–128 characters; the first answer is kept 24 hours and replayed (Idempotency-Replayed: true)', required: op.idempotency === 'required' }]),
        { name: 'X-Service-Agent-Name', description: 'The agent acting for the person whose credential is used, percent-encoded UTF-8 (1–128 characters); recorded on every change' },
      ],
      responses,
      description: describe(op),
      errors: op.betaExempt ? { ...PLAN_ERRORS, 402: 'Never: this endpoint answers whether or not Plan is enabled' } : PLAN_ERRORS,
      extensions: { 'x-beta': true, 'x-plan-scope': op.scope, 'x-idempotency-key': op.idempotency, ...(op.destructive ? { 'x-dry-run': true } : {}) },
    };
  });
}

function pageOf(item: Operation['responses'][number]): JsonSchema {
  return {
    type: 'object',
    required: ['count', 'next', 'previous', 'results'],
    properties: { count: { type: 'integer' }, next: { type: ['string', 'null'], format: 'uri' }, previous: { type: ['string', 'null'], format: 'uri' }, results: { type: 'array', items: item } },
  };
}

/** Appended to the document's description: what every Plan operation shares, and the scope table. */
export function planDescription(): string {
  return [
    '',
    '',
    '## Plan (beta)',
    '',
    'Everything under `/v1/plan/` is in beta and may change before general availability. Every Plan call passes, in order: ' +
      'the credential (401), the beta (402 `plan_upgrade_required`, except entitlements), `guest_not_allowed`, person-only checks, ' +
      'the key\'s explicit scopes (403 `insufficient_scope`), the read-only switch on writes (503), and the per-actor minute ceiling (429). ' +
      'Writes take `Idempotency-Key` and `X-Service-Agent-Name`; destructive calls take `?dry_run=true`. ' +
      'A key with no explicit scopes may call everything its owner may; `tasks:admin` covers `tasks:write`, which covers `tasks:read`.',
    '',
    scopeTable(describePlan().operations),
  ].join('\n');
}
