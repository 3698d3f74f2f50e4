import type { Executor, Trx } from '../../db/connection.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import { ensureAgent, requireAgent } from './identity.ts';
import { PENDING_LIMIT, markDelivered, pendingMessages, undeliveredQuery } from './messages-service.ts';
import { presentHealth, presentHistoryItem, presentMessage } from './presenter.ts';
import type { HealthInput } from './schema.ts';
import type { AgentRow, HealthCheckRow, MessageRow } from '../../db/tables.ts';

export const HISTORY_LENGTH = 20;

/**
 * POST /v1/agent-health/ (CONTRACT §6, §12): records the check, and answers with the pending messages, which
 * from then on count as delivered (each is handed out once). Runs in the caller's transaction (the route's
 * group commit) and touches nothing outside it.
 */
export async function recordHealth(trx: Trx, actor: Actor, input: HealthInput, now: Date) {
  const agent = await ensureAgent(trx, actor.organization.uuid, input.agent_name, now);
  const status = input.ok ? 'healthy' : 'unhealthy';
  const check: HealthCheckRow = { uuid: uuidv7(now.getTime()), agent_uuid: agent.uuid, status, message: input.message ?? null, created_at: now.toISOString() };
  await trx('agent_health_checks').insert(check);
  const changes = { status, status_message: check.message, last_check_at: check.created_at, updated_at: check.created_at };
  await trx('agents').where({ uuid: agent.uuid }).update(changes);
  const pending = await pendingMessages(trx, agent.uuid, now);
  await markDelivered(trx, pending.map((m) => m.uuid), now);
  return {
    ...presentHealth({ ...agent, ...changes }),
    pending_messages: pending.map((m) => presentMessage({ ...m, delivered: true }, agent.name)),
  };
}

/** GET /v1/agent-health/?agent_name= : the last status, the pending messages (not delivered by reading) and history. */
export async function readHealth(db: Executor, actor: Actor, agentName: string, now: Date) {
  const agent = await requireAgent(db, actor.organization.uuid, agentName);
  const [pending, history]: [MessageRow[], HealthCheckRow[]] = await Promise.all([
    undeliveredQuery(db, agent.uuid, now).limit(PENDING_LIMIT),
    db('agent_health_checks').where({ agent_uuid: agent.uuid }).orderBy('created_at', 'desc').orderBy('uuid', 'desc').limit(HISTORY_LENGTH),
  ]);
  return {
    ...presentHealth(agent),
    pending_messages: pending.map((m) => presentMessage(m, agent.name)),
    history: history.map(presentHistoryItem),
  };
}

/** GET /v1/agent/health/ : every agent of the organization with its last status, by name. */
export async function listAgentHealth(db: Executor, actor: Actor, page: PageRequest, now: Date) {
  const base = db('agents').where({ organization_uuid: actor.organization.uuid });
  const [{ count }] = await base.clone().count({ count: '*' });
  const agents: AgentRow[] = await base.clone().orderBy('name').orderBy('uuid').limit(page.limit).offset(page.offset);
  const pendingCounts = new Map<string, number>();
  if (agents.length) {
    const rows = await db('agent_messages')
      .whereIn('agent_uuid', agents.map((a) => a.uuid))
      .andWhere({ delivered: false })
      .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now.toISOString()))
      .groupBy('agent_uuid')
      .select('agent_uuid')
      .count({ n: '*' });
    for (const row of rows as { agent_uuid: string; n: number | string }[]) pendingCounts.set(row.agent_uuid, Number(row.n));
  }
  return {
    count: Number(count),
    rows: agents.map((a) => ({ ...presentHealth(a), pending_count: pendingCounts.get(a.uuid) ?? 0, webhook_registered: a.webhook_url !== null })),
  };
}
