import type { Db, Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { writeJson } from '../../lib/json.ts';
import { cancelPending } from '../../outbox/deliveries.ts';
import { enqueueAgentWebhook } from './webhook-delivery.ts';
import { fullName } from '../users/repository.ts';
import { ensureAgent } from './identity.ts';
import type { Actor } from '../../auth/credentials.ts';
import { actsAsPerson } from '../../auth/policy.ts';
import type { MessageInput } from './schema.ts';
import { presentMessage } from './presenter.ts';
import type { AgentRow, MessageRow, MessageType, SenderType } from '../../db/tables.ts';

export interface NewMessage {
  senderType: SenderType;
  senderName: string;
  senderUserUuid?: string | null;
  messageType: MessageType;
  content: string;
  metadata?: Record<string, unknown> | null;
  emailMessageId?: string | null;
  expiresAt?: string | null;
}

/** Pending messages carried by a report or health answer, at most. */
export const PENDING_LIMIT = 100;

/** Messages not yet delivered and not expired, in no particular order. */
function undelivered(db: Executor, agentUuid: string, now: Date) {
  return db('agent_messages')
    .where({ agent_uuid: agentUuid, delivered: false })
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now.toISOString()));
}

/** Messages not yet delivered and not expired, oldest first. */
export function undeliveredQuery(db: Executor, agentUuid: string, now: Date) {
  return undelivered(db, agentUuid, now).orderBy('created_at').orderBy('uuid');
}

/**
 * The pending messages a report or health answer carries (oldest first, at most PENDING_LIMIT). Usually there
 * are none, so a probe without ORDER BY answers first: SQLite prepares an ordered query with bound values again
 * on every run (about 50 µs here, measured), the probe costs a few µs.
 */
export async function pendingMessages(db: Executor, agentUuid: string, now: Date): Promise<MessageRow[]> {
  if (!(await undelivered(db, agentUuid, now).first('uuid'))) return [];
  return undeliveredQuery(db, agentUuid, now).limit(PENDING_LIMIT);
}

/**
 * Writes a message for `agent`; when the agent has a webhook, the push (the message as the API shows it) goes
 * into the delivery outbox in the same transaction (CONTRACT §6, §10). The caller kicks the delivery workers
 * after committing.
 */
export async function createMessage(trx: Executor, agent: AgentRow, input: NewMessage, now: Date): Promise<MessageRow> {
  const row: MessageRow = {
    uuid: uuidv7(now.getTime()),
    organization_uuid: agent.organization_uuid,
    agent_uuid: agent.uuid,
    sender_type: input.senderType,
    sender_name: input.senderName,
    sender_user_uuid: input.senderUserUuid ?? null,
    message_type: input.messageType,
    content: input.content,
    metadata: writeJson(input.metadata ?? {}),
    email_message_id: input.emailMessageId ?? null,
    delivered: false,
    delivered_at: null,
    read_at: null,
    expires_at: input.expiresAt ?? null,
    created_at: now.toISOString(),
  };
  await trx('agent_messages').insert(row);
  if (agent.webhook_url && agent.webhook_secret_encrypted) {
    const message = presentMessage(row, agent.name);
    await enqueueAgentWebhook(
      trx,
      { organizationUuid: agent.organization_uuid, agentName: agent.name, url: agent.webhook_url, sealedSecret: agent.webhook_secret_encrypted, message },
      now,
    );
  }
  return row;
}

/**
 * Marks messages delivered (a health answer returned them), or read and delivered (the agent read them); returns
 * how many changed: a message already delivered (or already read) is not counted again. Their webhook pushes that
 * have not gone out yet are cancelled: the agent already has them.
 */
export async function markDelivered(trx: Executor, uuids: string[], now: Date, read = false): Promise<number> {
  if (uuids.length === 0) return 0;
  const stamp = now.toISOString();
  let updated = 0;
  for (let i = 0; i < uuids.length; i += 500) {
    const chunk = uuids.slice(i, i + 500);
    updated += read
      ? await trx('agent_messages').whereIn('uuid', chunk).whereNull('read_at').update({ read_at: stamp, delivered: true })
      : await trx('agent_messages').whereIn('uuid', chunk).where({ delivered: false }).update({ delivered: true });
    await trx('agent_messages').whereIn('uuid', chunk).whereNull('delivered_at').update({ delivered_at: stamp });
    await cancelPending(trx, { channel: 'agent_webhook', subjectUuids: chunk }, null, now);
  }
  return updated;
}

/** POST /v1/agent-messages/ : a message for an agent; people send with `sender_type: human` (the default). */
export async function sendMessage(
  db: Db,
  actor: Actor,
  input: MessageInput,
  now: Date,
): Promise<{ message: MessageRow; agentName: string }> {
  return db.transaction(async (trx) => {
    const agent = await ensureAgent(trx, actor.organization.uuid, input.agent_name, now);
    const senderType = input.sender_type ?? 'human';
    const senderName = input.sender_name ?? (senderType === 'human' ? fullName(actor.user) : senderType === 'system' ? 'Rollcall' : '');
    const message = await createMessage(
      trx,
      agent,
      {
        senderType,
        senderName,
        senderUserUuid: actsAsPerson(actor) ? actor.user.uuid : null,
        messageType: input.message_type ?? 'text',
        content: input.content,
        metadata: input.metadata ?? {},
        expiresAt: input.expires_at ?? null,
      },
      now,
    );
    return { message, agentName: agent.name };
  });
}

export const MESSAGE_LIST_LIMIT = 100;

/**
 * GET /v1/agent-messages/?agent_name=&delivered= : a bare array (CONTRACT §2), oldest first, never expired
 * messages. Without agent_name: every agent of the organization. `limit` (1–100, default 100).
 */
export async function listMessages(
  db: Executor,
  organizationUuid: string,
  filters: { agentName: string | null; delivered: boolean | null; limit: number },
  now: Date,
): Promise<(MessageRow & { agent_name: string })[]> {
  const q = db('agent_messages as m')
    .join('agents as a', 'a.uuid', 'm.agent_uuid')
    .where('m.organization_uuid', organizationUuid)
    .andWhere((w) => w.whereNull('m.expires_at').orWhere('m.expires_at', '>', now.toISOString()));
  if (filters.agentName !== null) q.andWhere('a.name', filters.agentName);
  if (filters.delivered !== null) q.andWhere('m.delivered', filters.delivered);
  const rows: (MessageRow & { agent_name: string })[] = await q
    .select('m.*', 'a.name as agent_name')
    .orderBy('m.created_at')
    .orderBy('m.uuid')
    .limit(filters.limit);
  return rows;
}

/** POST|PATCH /v1/agent-messages/read/ : marks the caller's organization's messages read (and delivered). */
export async function readMessages(db: Db, organizationUuid: string, ids: string[], now: Date): Promise<number> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  return db.transaction(async (trx) => {
    const rows: { uuid: string }[] = [];
    for (let i = 0; i < wanted.length; i += 500) {
      rows.push(...(await trx('agent_messages').where({ organization_uuid: organizationUuid }).whereIn('uuid', wanted.slice(i, i + 500)).select('uuid')));
    }
    return markDelivered(trx, rows.map((r) => r.uuid), now, true);
  });
}
