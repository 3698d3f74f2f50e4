import type { Executor, Trx } from '../../db/connection.ts';
import type { GroupCommit } from '../../db/group-commit.ts';
import type { PageRequest } from '../../lib/page.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import { ensureAgent, requireAgent } from './identity.ts';
import { PENDING_LIMIT, markDelivered, pendingMessages, undeliveredQuery } from './messages-service.ts';
import type { HealthInput } from './schema.ts';
import type { AgentRow, HealthCheckRow, MessageRow } from '../../db/tables.ts';

export const HISTORY_LENGTH = 20;

/** What a health check answers: the agent's new state and the pending messages it hands out. */
export interface HealthCheckResult {
  agent: AgentRow;
  pending: MessageRow[];
}

/**
 * POST /v1/agent-health/ (CONTRACT §6, §12): records the check, and answers with the pending messages, which
 * from then on count as delivered (each is handed out once). A small write at a high rate: it goes through the
 * group commit, so it touches nothing outside its transaction (it may run again after a batch rolled back).
 */
export function recordHealth(writes: GroupCommit, actor: Actor, input: HealthInput, now: Date): Promise<HealthCheckResult> {
  return writes.run((trx) => recordHealthIn(trx, actor, input, now));
}

async function recordHealthIn(trx: Trx, actor: Actor, input: HealthInput, now: Date): Promise<HealthCheckResult> {
  const agent = await ensureAgent(trx, actor.organization.uuid, input.agent_name, now);
  const status = input.ok ? 'healthy' : 'unhealthy';
  const check: HealthCheckRow = { uuid: uuidv7(now.getTime()), agent_uuid: agent.uuid, status, message: input.message ?? null, created_at: now.toISOString() };
  await trx('agent_health_checks').insert(check);
  const changes = { status, status_message: check.message, last_check_at: check.created_at, updated_at: check.created_at };
  await trx('agents').where({ uuid: agent.uuid }).update(changes);
  const pending = await pendingMessages(trx, agent.uuid, now);
  await markDelivered(trx, pending.map((m) => m.uuid), now);
  return { agent: { ...agent, ...changes }, pending: pending.map((m) => ({ ...m, delivered: true })) };
}

/** GET /v1/agent-health/?agent_name= : the last status, the pending messages (not delivered by reading) and history. */
export async function readHealth(db: Executor, actor: Actor, agentName: string, now: Date) {
  const agent = await requireAgent(db, actor.organization.uuid, agentName);
  const [pending, history]: [MessageRow[], HealthCheckRow[]] = await Promise.all([
    undeliveredQuery(db, agent.uuid, now).limit(PENDING_LIMIT),
    db('agent_health_checks').where({ agent_uuid: agent.uuid }).orderBy('created_at', 'desc').orderBy('uuid', 'desc').limit(HISTORY_LENGTH),
  ]);
  return { agent, pending, history };
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
  return { count: Number(count), rows: agents.map((agent) => ({ agent, pendingCount: pendingCounts.get(agent.uuid) ?? 0 })) };
}
