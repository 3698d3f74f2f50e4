import { bool, readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import type { AgentRow, HealthCheckRow, MessageRow, ReportRow } from '../../db/tables.ts';

export interface CoAuthor {
  uuid: string;
  name: string;
  full_name: string;
}

/** CONTRACT §6/§12 agent message: every field shown to people is a string. */
export function presentMessage(row: MessageRow, agentName: string) {
  return {
    id: row.uuid,
    uuid: row.uuid,
    agent_name: agentName,
    sender_name: row.sender_name ?? '',
    sender_type: row.sender_type,
    message_type: row.message_type,
    content: row.content,
    metadata: readJson<Record<string, unknown>>(row.metadata, {}),
    delivered: bool(row.delivered),
    created_at: iso(row.created_at)!,
    expires_at: iso(row.expires_at),
  };
}
export type AgentMessage = ReturnType<typeof presentMessage>;

export function presentReport(row: ReportRow, agentName: string) {
  return {
    id: row.uuid,
    uuid: row.uuid,
    agent_name: agentName,
    content: row.content,
    structured: readJson<Record<string, unknown> | null>(row.structured, null),
    metadata: readJson<Record<string, unknown>>(row.metadata, {}),
    is_milestone: bool(row.is_milestone),
    co_authors: readJson<CoAuthor[]>(row.co_authors, []),
    created_at: iso(row.created_at)!,
  };
}

/** CONTRACT §6/§12 health answer: `status` healthy|unhealthy, `last_check` = `last_check_at`. */
export function presentHealth(agent: AgentRow) {
  const lastCheck = iso(agent.last_check_at);
  return {
    agent_name: agent.name,
    status: agent.status ?? 'unknown',
    last_check_at: lastCheck,
    last_check: lastCheck,
    message: agent.status_message ?? '',
  };
}

export function presentHistoryItem(row: HealthCheckRow) {
  return { timestamp: iso(row.created_at)!, status: row.status, message: row.message ?? '' };
}
