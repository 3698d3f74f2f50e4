import type { Executor } from '../../db/connection.ts';
import { ValidationFailed, badRequest, notFound } from '../../lib/errors.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import type { Actor } from '../../auth/credentials.ts';
import { cancelPending } from '../../outbox/deliveries.ts';
import { actsAsPerson } from '../../auth/policy.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { newSigningSecret } from '../../outbound/signing.ts';
import { actionsOf, requirePlatformFor, throwProblems, triggerConfig } from './definition.ts';
import type { UrlPolicy } from './definition.ts';
import { isActive } from './repository.ts';
import type { RunRow, StoredAction, WorkflowRow, WorkflowSecrets } from './repository.ts';
import { startRun } from './runs.ts';
import { runViews } from './run-status.ts';
import type { RunView } from './run-status.ts';
import { MAX_PAYLOAD_BYTES } from './schema.ts';
import type { CreateWorkflowInput, TriggerType, UpdateWorkflowInput } from './schema.ts';

const minuteOf = (now: Date) => new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();

export async function getWorkflow(db: Executor, actor: Actor, uuid: string): Promise<WorkflowRow> {
  const row: WorkflowRow | undefined = await db('workflows').where({ organization_uuid: actor.organization.uuid, uuid }).first();
  if (!row) throw notFound();
  return row;
}

export async function listWorkflows(db: Executor, actor: Actor, filters: { triggerType?: TriggerType; active?: boolean; search?: string }, page: PageRequest) {
  const filtered = () => {
    const query = db('workflows').where({ organization_uuid: actor.organization.uuid });
    if (filters.triggerType) query.andWhere({ trigger_type: filters.triggerType });
    if (filters.active !== undefined) query.andWhere({ active: filters.active });
    if (filters.search) query.andWhereRaw("lower(name) like ? escape '\\'", [`%${filters.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
    return query;
  };
  const [{ count }] = await filtered().count({ count: '*' });
  const rows: WorkflowRow[] = await filtered().select().orderBy('created_at').orderBy('uuid').limit(page.limit).offset(page.offset);
  return { count: Number(count), rows };
}

/** POST /v1/workflows/ (admins): answers the new workflow with its signing secret, shown this once. */
export async function createWorkflow(db: Executor, box: SecretBox, policy: UrlPolicy, actor: Actor, input: CreateWorkflowInput, now: Date) {
  const problems: Record<string, string[]> = {};
  const config = triggerConfig(input.trigger_type, input.trigger_config, actor.organization.timezone || 'UTC', problems);
  const { actions, headers } = await actionsOf(db, actor, input.actions, policy, problems);
  throwProblems(problems);
  await requirePlatformFor(db, actor, actions);
  const signingSecret = newSigningSecret();
  const secrets: WorkflowSecrets = { signing_secret: signingSecret, headers };
  const row: WorkflowRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: actor.organization.uuid,
    name: input.name,
    description: input.description ?? null,
    trigger_type: input.trigger_type,
    trigger_config: writeJson(config),
    actions: writeJson(actions),
    secrets_encrypted: box.encrypt(writeJson(secrets)),
    active: input.active ?? true,
    total_runs: 0,
    last_run_at: null,
    schedule_checked_at: minuteOf(now),
    created_by_uuid: actor.user.uuid,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db('workflows').insert(row);
  return { row, signingSecret };
}

/** PATCH (admins): what is present changes; `actions` replaces the list, the signing secret stays. */
export async function updateWorkflow(db: Executor, box: SecretBox, policy: UrlPolicy, actor: Actor, uuid: string, input: UpdateWorkflowInput, now: Date): Promise<WorkflowRow> {
  const current = await getWorkflow(db, actor, uuid);
  const problems: Record<string, string[]> = {};
  const type = input.trigger_type ?? current.trigger_type;
  const changes: Partial<WorkflowRow> = { updated_at: now.toISOString() };
  if (input.trigger_type !== undefined || input.trigger_config !== undefined) {
    const given = input.trigger_config ?? (input.trigger_type && input.trigger_type !== current.trigger_type ? {} : readJson(current.trigger_config, {}));
    changes.trigger_type = type;
    changes.trigger_config = writeJson(triggerConfig(type, given, actor.organization.timezone || 'UTC', problems));
  }
  let actions: StoredAction[] | null = null;
  if (input.actions) {
    const built = await actionsOf(db, actor, input.actions, policy, problems);
    throwProblems(problems);
    await requirePlatformFor(db, actor, built.actions);
    actions = built.actions;
    const secrets = readJson<WorkflowSecrets>(box.decrypt(current.secrets_encrypted, 'the workflow\'s secrets'), { signing_secret: newSigningSecret(), headers: {} });
    changes.actions = writeJson(actions);
    changes.secrets_encrypted = box.encrypt(writeJson({ ...secrets, headers: built.headers }));
  }
  throwProblems(problems);
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.active !== undefined) changes.active = input.active;
  // A schedule looks forward from now: turning one on (or into a schedule) never fires the minutes it was off.
  if ((input.active === true && !isActive(current)) || changes.trigger_config !== undefined) changes.schedule_checked_at = minuteOf(now);
  await db('workflows').where({ uuid }).update(changes);
  return { ...current, ...changes } as WorkflowRow;
}

/** DELETE (admins): the workflow and its runs go; deliveries still waiting are cancelled. */
async function deleteWorkflowInTransaction(db: Executor, actor: Actor, uuid: string, now: Date): Promise<void> {
  await getWorkflow(db, actor, uuid);
  const actions = (await db('workflow_run_actions').whereIn('run_uuid', db('workflow_runs').select('uuid').where({ workflow_uuid: uuid })).select('uuid')).map((a) => a.uuid);
  for (let i = 0; i < actions.length; i += 200) {
    for (const channel of ['email', 'chat', 'http_request'] as const) {
      await cancelPending(db, { channel, subjectUuids: actions.slice(i, i + 200) }, 'workflow deleted', now);
    }
  }
  await db('workflows').where({ uuid }).delete();
}

/** In a transaction of its own (a savepoint when given one). */
export function deleteWorkflow(db: Executor, actor: Actor, uuid: string, now: Date): Promise<void> {
  return db.transaction((trx) => deleteWorkflowInTransaction(trx, actor, uuid, now));
}

function payloadProblems(payload: unknown): string | null {
  const size = Buffer.byteLength(JSON.stringify(payload), 'utf8');
  if (size > MAX_PAYLOAD_BYTES) return `The payload is ${size} bytes of JSON; at most ${MAX_PAYLOAD_BYTES} (8 KiB).`;
  const depth = (value: unknown): number => (value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value as object).map(depth)) : 0);
  if (depth(payload) > 16) return 'The payload nests deeper than 16 levels.';
  return null;
}

/** POST …/trigger/: only active api_trigger workflows (400 workflow_not_triggerable, workflow_inactive). */
async function triggerWorkflowInTransaction(db: Executor, actor: Actor, uuid: string, payload: Record<string, unknown> | undefined, now: Date): Promise<RunRow> {
  const workflow = await getWorkflow(db, actor, uuid);
  if (workflow.trigger_type !== 'api_trigger') {
    throw badRequest('workflow_not_triggerable', `Only api_trigger workflows can be triggered through the API; this one runs on ${workflow.trigger_type === 'schedule' ? 'its schedule' : 'an event'}.`);
  }
  if (!isActive(workflow)) throw badRequest('workflow_inactive', 'This workflow is turned off; set active to true to trigger it.');
  const problem = payloadProblems(payload ?? {});
  if (problem) throw new ValidationFailed({ payload: [problem] });
  return startRun(db, workflow, { type: 'api_trigger', payload: payload ?? {}, triggeredBy: actsAsPerson(actor) ? actor.user.uuid : null }, now);
}

/** In a transaction of its own (a savepoint when given one). */
export function triggerWorkflow(db: Executor, actor: Actor, uuid: string, payload: Record<string, unknown> | undefined, now: Date): Promise<RunRow> {
  return db.transaction((trx) => triggerWorkflowInTransaction(trx, actor, uuid, payload, now));
}

export async function listRuns(db: Executor, actor: Actor, workflowUuid: string, page: PageRequest): Promise<{ count: number; views: RunView[] }> {
  await getWorkflow(db, actor, workflowUuid);
  const [{ count }] = await db('workflow_runs').where({ workflow_uuid: workflowUuid }).count({ count: '*' });
  const runs: RunRow[] = await db('workflow_runs').where({ workflow_uuid: workflowUuid }).orderBy('created_at', 'desc').orderBy('uuid', 'desc').limit(page.limit).offset(page.offset);
  return { count: Number(count), views: await runViews(db, runs) };
}

export async function getRun(db: Executor, actor: Actor, workflowUuid: string, runUuid: string): Promise<RunView> {
  await getWorkflow(db, actor, workflowUuid);
  const run: RunRow | undefined = await db('workflow_runs').where({ workflow_uuid: workflowUuid, uuid: runUuid }).first();
  if (!run) throw notFound();
  return (await runViews(db, [run]))[0];
}
