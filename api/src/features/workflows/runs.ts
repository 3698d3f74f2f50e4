import type { Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { enqueue } from '../../outbox/deliveries.ts';
import { platformName } from '../chat-platform/connection.ts';
import { enqueueChatPost } from '../chat-platform/enqueue.ts';
import { htmlToText } from '../email/service.ts';
import { TemplateError, renderTemplate } from './template.ts';
import type { RunActionRow, RunRow, StoredAction, WorkflowRow } from './repository.ts';
import type { HTTP_METHODS, TriggerType } from './schema.ts';

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

export interface Trigger {
  type: TriggerType;
  event?: string | null;
  payload: Record<string, unknown>;
  triggeredBy?: string | null;
}

/** The payload of an http_request delivery; header values stay sealed in the delivery's secret. */
export interface HttpRequestPayload {
  action_index: number;
  method: (typeof HTTP_METHODS)[number];
  content_type: string;
  body: string | null;
}

class ActionFailed extends Error {}

/** Who the people of a send_message action are: the named users and the active members of the named teams. */
async function messageUsers(db: Executor, organizationUuid: string, action: Extract<StoredAction, { type: 'send_message' }>) {
  const fromTeams: string[] = action.target_teams.length
    ? (await db('team_members as m').join('teams as t', 't.uuid', 'm.team_uuid').where('t.organization_uuid', organizationUuid).whereIn('m.team_uuid', action.target_teams).select('m.user_uuid')).map(
        (r: { user_uuid: string }) => r.user_uuid,
      )
    : [];
  const wanted = [...new Set([...action.target_users, ...fromTeams])];
  if (wanted.length === 0) return [];
  return db('users').where({ organization_uuid: organizationUuid, is_active: true }).whereIn('uuid', wanted).select('uuid', 'email', 'first_name', 'last_name');
}

/** Renders one action and writes its deliveries; returns where it goes, or throws ActionFailed. */
async function enqueueAction(db: Executor, workflow: WorkflowRow, action: StoredAction, index: number, actionUuid: string, data: Record<string, unknown>, now: Date): Promise<string> {
  const org = workflow.organization_uuid;
  const base = { organizationUuid: org, subjectUuid: actionUuid, kind: `workflow.${action.type}` };
  if (action.type === 'send_message') {
    const platform = await platformName(db, org);
    if (!platform) throw new ActionFailed('platform_not_connected: no chat platform is connected');
    const users = await messageUsers(db, org, action);
    const channels = platform === 'slack' ? action.target_channels : [];
    if (users.length === 0 && channels.length === 0 && platform === 'slack') throw new ActionFailed('no active person or channel to send to');
    const text = renderTemplate(action.message, data, 'text');
    await enqueueChatPost(db, { organizationUuid: org, platform, text, channels, users, kind: base.kind, subjectUuid: actionUuid }, now);
    return `${platform}: ${[...channels, ...users.map((u: { email: string }) => u.email)].join(', ') || 'connected channel'}`;
  }
  if (action.type === 'send_email') {
    const to = [...new Set(action.to.map((t) => renderTemplate(t, data, 'text').trim().toLowerCase()))].filter(Boolean);
    const bad = to.filter((address) => !EMAIL.test(address));
    if (to.length === 0 || bad.length) throw new ActionFailed(`not an e-mail address: ${bad.join(', ') || '(empty)'}`);
    const html = renderTemplate(action.body_html, data, 'html');
    const message = { to, subject: renderTemplate(action.subject, data, 'text').replace(/[\r\n]+/g, ' ').slice(0, 512), text: htmlToText(html), html };
    await enqueue(db, { ...base, channel: 'email', destination: to.join(', '), payload: message }, now);
    return to.join(', ');
  }
  const json = /json/i.test(action.content_type);
  const body = action.method === 'GET' ? null : action.body !== null ? renderTemplate(action.body, data, json ? 'json' : 'text') : JSON.stringify(data);
  const payload: HttpRequestPayload = { action_index: index, method: action.method, content_type: action.content_type, body };
  // The workflow's sealed secrets travel with the delivery as they are: the signing secret and the header values.
  await enqueue(db, { ...base, channel: 'http_request', destination: action.url, payload, secretEncrypted: workflow.secrets_encrypted }, now);
  return `${action.method} ${action.url}`;
}

/**
 * Starts a run of `workflow`: renders each action against the trigger's payload and writes its deliveries to the
 * outbox, in the caller's transaction, so a run exists exactly when its deliveries do. An action that cannot be
 * queued (a template that does not render, no chat platform, no valid address) is recorded as failed; the others
 * still go. Actions are independent: each is retried on its own.
 */
export async function startRun(db: Executor, workflow: WorkflowRow, trigger: Trigger, now: Date): Promise<RunRow> {
  const stamp = now.toISOString();
  const run: RunRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: workflow.organization_uuid,
    workflow_uuid: workflow.uuid,
    trigger: trigger.type,
    event: trigger.event ?? null,
    payload: JSON.stringify(trigger.payload),
    triggered_by_uuid: trigger.triggeredBy ?? null,
    created_at: stamp,
  };
  await db('workflow_runs').insert(run);
  await db('workflows').where({ uuid: workflow.uuid }).update({ total_runs: db.raw('?? + 1', ['total_runs']), last_run_at: stamp });
  const data = {
    payload: trigger.payload,
    event: run.event,
    workflow: { uuid: workflow.uuid, name: workflow.name },
    run: { uuid: run.uuid, trigger: run.trigger, created_at: stamp },
  };
  const actions = readJson<StoredAction[]>(workflow.actions, []);
  const rows: RunActionRow[] = [];
  for (const [index, action] of actions.entries()) {
    const row: RunActionRow = { uuid: uuidv7(now.getTime()), run_uuid: run.uuid, position: index, type: action.type, destination: null, error: null, created_at: stamp };
    try {
      row.destination = await enqueueAction(db, workflow, action, index, row.uuid, data, now);
    } catch (err) {
      if (!(err instanceof ActionFailed || err instanceof TemplateError)) throw err;
      row.error = err.message;
    }
    rows.push(row);
  }
  if (rows.length) await db('workflow_run_actions').insert(rows);
  return run;
}
