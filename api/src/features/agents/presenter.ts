import { bool, readJson } from '../../lib/json.ts';
import { CHALLENGE_FACTOR } from './registration-service.ts';
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

/** POST /v1/agent-health/: the new state and the pending messages, delivered by this answer. */
export function presentHealthCheck({ agent, pending }: { agent: AgentRow; pending: MessageRow[] }) {
  return { ...presentHealth(agent), pending_messages: pending.map((m) => presentMessage(m, agent.name)) };
}

/** GET /v1/agent-health/: the last status, the pending messages and the history of checks. */
export function presentHealthReading({ agent, pending, history }: { agent: AgentRow; pending: MessageRow[]; history: HealthCheckRow[] }) {
  return { ...presentHealth(agent), pending_messages: pending.map((m) => presentMessage(m, agent.name)), history: history.map(presentHistoryItem) };
}

/** An item of GET /v1/agent/health/. */
export function presentAgentStatus({ agent, pendingCount }: { agent: AgentRow; pendingCount: number }) {
  return { ...presentHealth(agent), pending_count: pendingCount, webhook_registered: agent.webhook_url !== null };
}

/** POST /v1/agent-reports/: the report and the agent's pending messages (CONTRACT §12: always an array). */
/** The create answer: the report, the agent's pending messages, and which co_authors named nobody (ignored). */
export function presentReportAnswer({ report, agentName, pending, unresolvedCoAuthors }: { report: ReportRow; agentName: string; pending: MessageRow[]; unresolvedCoAuthors: string[] }) {
  const { created_at, ...shown } = presentReport(report, agentName);
  return { ...shown, co_authors_unresolved: unresolvedCoAuthors, created_at, pending_messages: pending.map((m) => presentMessage(m, agentName)) };
}

/** POST|PATCH /v1/agent-messages/read/: how many messages this call marked read. */
export const presentReadCount = (updated: number) => ({ updated });

/** POST /v1/agent-email/send/ (spec "Agent e-mail"): replies to `reply_to` come back as agent messages. */
export function presentAgentEmailSent({ to, replyTo, messageId }: { to: string[]; replyTo: string; messageId: string }) {
  return { sent_count: to.length, total_recipients: to.length, reply_to: replyTo, message_id: messageId };
}

export const presentWebhookRegistered = ({ agentName, webhookUrl }: { agentName: string; webhookUrl: string }) => ({ agent_name: agentName, webhook_url: webhookUrl });

export function presentWebhookRemoved({ agentName, hadWebhook }: { agentName: string; hadWebhook: boolean }) {
  return { detail: hadWebhook ? `Webhook unregistered for agent "${agentName}".` : `Agent "${agentName}" had no webhook.` };
}

/** GET /v1/agent/register/challenge/ (CONTRACT §6, §12): the instruction names the number; the answer is N × 52. */
export function presentChallenge({ uuid, number, expiresAt }: { uuid: string; number: number; expiresAt: string }) {
  return {
    challenge_id: uuid,
    instruction: `The number for this session is ${number}. Multiply it by ${CHALLENGE_FACTOR} and send the result as "answer", with this challenge_id, to POST /v1/agent/register/ within 10 minutes.`,
    expires_at: expiresAt,
  };
}

/** POST /v1/agent/register/: the agent's key and claim token, shown this once. */
export function presentRegistration(r: { agentName: string; agentEmail: string; orgName: string; apiKey: string; claimToken: string }, baseUrl: string) {
  return {
    agent_name: r.agentName,
    agent_email: r.agentEmail,
    org_name: r.orgName,
    api_key: r.apiKey,
    claim_token: r.claimToken,
    claim_url: `${baseUrl}/v1/agent/claim/?claim_token=${r.claimToken}`,
  };
}

export function presentClaim({ agentName, organization, claimedAt }: { agentName: string; organization: { uuid: string; name: string }; claimedAt: Date }) {
  return { agent_name: agentName, organization: { uuid: organization.uuid, name: organization.name }, claimed_at: claimedAt.toISOString() };
}
