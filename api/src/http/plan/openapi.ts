import type { OpenApiPart } from '../feature.ts';
import type { Operation } from '../openapi/types.ts';
import type { JsonSchema } from '../openapi/yup-to-json-schema.ts';
import { yupToJsonSchema } from '../openapi/yup-to-json-schema.ts';
import type { PlanOperation, QueryDoc } from './declarations.ts';
import { describePlan } from './registrar.ts';
import { IDEMPOTENCY_KEY_RULE } from './idempotency.ts';
import type { PlanResource } from './registrar.ts';

/** The Plan's part of the OpenAPI document, generated from each resource's route declarations. */
const PLAN_ERRORS: Record<number, string> = {
  401: 'Credential refused (`credential_absent`, `credential_malformed`, `credential_expired`, `invalid_credentials`; on this surface also `api_key_owner_inactive`, `plan_free_api_keys_forbidden`, `plan_missing_core_api_integrations`)',
  402: '`plan_upgrade_required` until the organization has the Plan beta; `task_boards_limit_reached` / `task_projects_limit_reached` at the plan ceiling',
  403: '`guest_not_allowed`; `insufficient_scope` (key scopes, or an agent/organization key on a person-only endpoint); role refusals',
  409: 'Conflict (`idempotency_in_progress`, `idempotency_key_payload_mismatch`, and the operation\'s own codes)',
  429: 'Minute ceiling per actor (`throttled`, `extra.retry_after`, Retry-After)',
  503: '`feature_temporarily_read_only`: Plan writes are refused during an incident; reads continue',
};

const BETA_EXEMPT_ERRORS: Record<number, string> = { 402: 'Never: this endpoint answers whether or not Plan is enabled' };

/** What a file download adds: the store's answers about the bytes. */
const DOWNLOAD_ERRORS: Record<number, string> = {
  410: '`attachment_content_missing`: the attachment is listed but its bytes are gone from storage (a disk restored without them, an object removed from the bucket); permanent: upload the file again',
  503: '`attachment_storage_unavailable` (Retry-After): the store did not answer; retry later. `feature_temporarily_read_only` never applies: this is a read',
};

const uuid = { type: 'string', format: 'uuid' };
const str = { type: 'string' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };

/** Field schemas the Plan's component schemas share. */
export const fields = {
  str,
  nullableStr: { type: ['string', 'null'] },
  uuid,
  nullableUuid: { type: ['string', 'null'], format: 'uuid' },
  dateTime: { type: 'string', format: 'date-time' },
  nullableDateTime,
  archived: { archived_at: nullableDateTime, is_archived: { type: 'boolean' } },
  times: { created_at: { type: 'string', format: 'date-time' }, updated_at: { type: 'string', format: 'date-time' } },
  visibility: { enum: ['org', 'members'] },
  person: { type: 'object', properties: { uuid, id: uuid, full_name: str, name: { ...str, description: 'full_name again (the DailyBot client\'s name)' } } },
};

/** Component schemas every Plan part may name. */
const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  PlanPerson: { type: 'object', properties: { uuid, id: uuid, full_name: str, name: { ...str, description: 'full_name again (the DailyBot client\'s name)' } } },
  PlanDryRun: {
    type: 'object',
    description: 'The answer of `?dry_run=true`: what the operation would have answered and changed; nothing was kept.',
    properties: {
      dry_run: { const: true }, status: { type: 'integer' }, result: {},
      changes: { type: 'array', items: { type: 'object', properties: { object_kind: str, object_uuid: uuid, change_kind: str, changed_fields: { type: 'array', items: str } } } },
    },
  },
};

/** The query parameters board and project lists share (PlanQuery.containerFilters). */
export function containerFilterDocs(noun: string, searchable: string, ordering: Record<string, string>, extra: QueryDoc[]): QueryDoc[] {
  return [
    { name: 'include_archived', description: `true to include archived ${noun}` },
    { name: 'search', description: `${searchable} contains (2–256 characters)` },
    ...extra,
    { name: 'member', description: `"me" or a user uuid: ${noun} with that member` },
    { name: 'visibility', description: 'org or members' },
    { name: 'ordering', description: `${Object.keys(ordering).join(', ')}; prefix - for descending; default position (the order set with …/reorder/)` },
  ];
}

/** `board` and `project` as the filters of organization-wide reads (pulse, timeline). */
export const SCOPE_DOCS: QueryDoc[] = [
  { name: 'board', description: 'board uuid (one you cannot see matches nothing)' },
  { name: 'project', description: 'project uuid: its boards' },
];

function describe(op: PlanOperation): string {
  const lines = [`Beta. Scope: \`${op.scope}\`; minute ceiling: ${op.ceiling}.`];
  if (op.person) lines.push('Person only: agent and organization keys get 403 `insufficient_scope`.');
  if (op.structure) lines.push('A structure change: agent and organization keys get 403 `insufficient_scope` (`extra.required_scope`: `tasks:admin`).');
  for (const [name, value] of Object.entries(op.personQuery)) lines.push(`\`${name}=${value}\` needs a person (400 \`actor_required\`).`);
  if (op.idempotency !== 'none') lines.push(`Idempotency-Key ${op.idempotency} (${IDEMPOTENCY_KEY_RULE}; replays answer \`Idempotency-Replayed: true\`).`);
  if (op.destructive) lines.push('`?dry_run=true` answers what would happen (PlanDryRun) and changes nothing.');
  return [op.description, ...lines].filter(Boolean).join(' ');
}

const ref = (answer: string | JsonSchema) => (typeof answer === 'string' ? { $ref: `#/components/schemas/${answer}` } : answer);

function pageOf(item: string | JsonSchema | null, envelope: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    required: ['count', 'next', 'previous', 'results'],
    properties: {
      count: { type: 'integer' }, next: { type: ['string', 'null'], format: 'uri' }, previous: { type: ['string', 'null'], format: 'uri' }, results: { type: 'array', items: item }, ...envelope,
    },
  };
}

const binary = { type: 'string', contentMediaType: 'application/octet-stream' };

/** A multipart upload's form: the file (part `file`) and the route's text fields. */
function uploadForm(upload: NonNullable<PlanOperation['upload']>): JsonSchema {
  const form = upload.fields ? (yupToJsonSchema(upload.fields) as { properties?: Record<string, JsonSchema>; required?: string[] }) : {};
  return {
    type: 'object',
    required: ['file', ...(form.required ?? [])],
    properties: { file: { ...binary, description: `The file (at most ${upload.maxBytes} bytes; its content decides its type)` }, ...form.properties },
  };
}

function toOperation(op: PlanOperation): Operation {
  const answer = op.status === 204 ? null : op.list ? pageOf(op.response, op.envelope) : op.response;
  const responses: Operation['responses'] = { [op.status]: op.download ? binary : answer };
  // A dry run answers 200 with PlanDryRun, beside (or instead of) the operation's own answer.
  if (op.destructive) responses[200] = op.status === 200 && answer !== null ? { oneOf: [ref(answer), ref('PlanDryRun')] } : 'PlanDryRun';
  return {
    method: op.method,
    path: op.path,
    summary: op.summary,
    tag: op.tag,
    scope: `plan-${op.ceiling}`,
    body: op.body,
    ...(op.upload ? { rawBody: { contentType: 'multipart/form-data', schema: uploadForm(op.upload) } } : {}),
    ...(op.items ? { rawBody: { contentType: 'application/json', schema: { type: 'array', maxItems: op.items.max, items: yupToJsonSchema(op.items.schema) } } } : {}),
    ...(op.download ? { responseType: 'application/octet-stream' } : {}),
    query: [...op.query, ...(op.destructive ? [{ name: 'dry_run', description: 'true: run, answer, and roll back' }] : [])],
    headers: [
      ...op.headers,
      ...(op.idempotency === 'none' ? [] : [{ name: 'Idempotency-Key', description: `${IDEMPOTENCY_KEY_RULE}; the first answer is kept 24 hours and replayed (Idempotency-Replayed: true)`, required: op.idempotency === 'required' }]),
      { name: 'X-Service-Agent-Name', description: 'The agent acting for the person whose credential is used, percent-encoded UTF-8 (1–128 characters); recorded on every change. X-Dailybot-Agent-Name is the same header; a JSON body may name it as agent_name instead' },
    ],
    responses,
    description: describe(op),
    errors: { ...PLAN_ERRORS, ...(op.betaExempt ? BETA_EXEMPT_ERRORS : {}), ...(op.download ? DOWNLOAD_ERRORS : {}) },
    extensions: {
      'x-beta': true,
      'x-plan-scope': op.scope,
      'x-idempotency-key': op.idempotency,
      ...(op.destructive ? { 'x-dry-run': true } : {}),
      ...(op.person ? { 'x-person-only': true } : {}),
      ...(Object.keys(op.personQuery).length ? { 'x-person-query': op.personQuery } : {}),
      ...(op.betaExempt ? { 'x-beta-exempt': true } : {}),
    },
  };
}

/** A Plan feature's openapi.ts: its operations, as its routes declare them, and the schemas they name. */
export function planOpenApiPart(resource: PlanResource, schemas: Record<string, JsonSchema>): OpenApiPart {
  // An alias path is documented as the operation it serves, under its own path (the routers serve it).
  const operations = describePlan(resource).flatMap((op) => {
    const main = toOperation(op);
    return [main, ...op.aliases.map((path) => ({ ...main, path, summary: `${op.summary} (also at ${op.path.replace(/:(\w+)/g, '{$1}')})` }))];
  });
  return { operations, schemas: { ...SHARED_SCHEMAS, ...schemas } };
}

/** The scope table, from the documented Plan operations (the first Plan section of the OpenAPI document and docs/plan.md print it). */
export function planScopeTable(operations: Operation[]): string {
  const rows = operations
    .filter((op) => op.extensions?.['x-plan-scope'])
    .map((op) => {
      const x = op.extensions as Record<string, unknown>;
      const notes = [
        x['x-beta-exempt'] ? 'never 402' : null,
        x['x-person-only'] ? 'person only' : null,
        ...Object.entries((x['x-person-query'] as Record<string, string> | undefined) ?? {}).map(([name, value]) => `${name}=${value} needs a person`),
        x['x-dry-run'] ? 'dry_run' : null,
        x['x-idempotency-key'] === 'required' ? 'Idempotency-Key required' : null,
      ].filter(Boolean);
      return `| ${op.method.toUpperCase()} | \`${op.path.replace(/:(\w+)/g, '{$1}')}\` | ${x['x-plan-scope']} | ${String(op.scope).replace('plan-', '')} | ${notes.join(', ')} |`;
    });
  return ['| Method | Path | Scope | Minute ceiling | Notes |', '|---|---|---|---|---|', ...rows].join('\n');
}

const PLAN_RULES =
  'Everything under `/v1/plan/` is in beta and may change before general availability. Every Plan call passes, in order: ' +
  'the credential (401), the beta (402 `plan_upgrade_required`, except entitlements), `guest_not_allowed`, person-only checks, ' +
  'the key\'s explicit scopes (403 `insufficient_scope`), the read-only switch on writes (503), and the per-actor minute ceiling (429). ' +
  'Writes take `Idempotency-Key` and `X-Service-Agent-Name`; destructive calls take `?dry_run=true`. ' +
  'A key with no explicit scopes may call everything its owner may; `tasks:admin` covers `tasks:write`, which covers `tasks:read`.';

const isPlan = (op: Operation) => Boolean(op.extensions?.['x-plan-scope']);

/**
 * Appended to the document's description: what every Plan operation shares, in one paragraph, and where the scope
 * table is. The table itself (about 130 rows) is in the description of the first Plan section (planTags): at the
 * top of the document it pushed Authorize and the first operation thousands of pixels down.
 */
export function planDescription(operations: Operation[]): string {
  const first = operations.find(isPlan);
  if (!first) return '';
  return `\n\n## Plan (beta)\n\n${PLAN_RULES} Every operation's scope opens its description; the table of them all is in the *${first.tag}* section.`;
}

/** The first Plan section's description: the scope table. */
export function planTags(operations: Operation[]): { name: string; description: string }[] {
  const first = operations.find(isPlan);
  if (!first?.tag) return [];
  const intro = '**Plan (beta)**: the scope and minute ceiling of every Plan operation (the rules they share open this reference).';
  return [{ name: first.tag, description: `${intro}\n\n${planScopeTable(operations)}` }];
}
