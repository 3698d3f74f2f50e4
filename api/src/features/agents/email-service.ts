import type { Db } from '../../db/connection.ts';
import { CustomThrottle } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { writeJson } from '../../lib/json.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Actor } from '../../auth/credentials.ts';
import { htmlToText } from '../email/service.ts';
import type { InboundEmail } from '../../inbound/parse.ts';
import { enqueueEmail } from '../../outbox/deliveries.ts';
import { ensureAgent, inboxAddress } from './identity.ts';
import { createMessage } from './messages-service.ts';
import type { AgentEmailInput } from './schema.ts';
import type { AgentRow } from '../../db/tables.ts';

const HOUR_MS = 3_600_000;

/**
 * POST /v1/agent-email/send/ (spec "Agent e-mail", CONTRACT §5, §6): at most `hourlyLimit` sends per agent in
 * any 60 minutes (429 `{detail, limit, current}` beyond). The HTML body goes out with a text part; Reply-To is the
 * agent's inbox, and the Message-ID is kept so replies thread back to this e-mail.
 */
export async function sendAgentEmail(
  db: Db,
  actor: Actor,
  input: AgentEmailInput,
  options: { hourlyLimit: number; inboundDomain: string },
  now: Date,
) {
  return db.transaction(async (trx) => {
    const agent = await ensureAgent(trx, actor.organization.uuid, input.agent_name, now);
    const since = new Date(now.getTime() - HOUR_MS).toISOString();
    const recent: { created_at: string }[] = await trx('agent_emails')
      .where({ agent_uuid: agent.uuid })
      .andWhere('created_at', '>', since)
      .orderBy('created_at')
      .select('created_at');
    if (recent.length >= options.hourlyLimit) {
      const oldest = new Date(recent[recent.length - options.hourlyLimit].created_at).getTime();
      const retryAfter = Math.max(1, Math.ceil((oldest + HOUR_MS - now.getTime()) / 1000));
      throw new CustomThrottle(retryAfter, {
        detail: `Agent e-mail limit reached: ${options.hourlyLimit} e-mails per hour for "${agent.name}". Try again in ${retryAfter} seconds.`,
        limit: options.hourlyLimit,
        current: recent.length,
      });
    }
    const to = [...new Set(input.to.map((a) => a.trim().toLowerCase()))];
    const replyTo = inboxAddress(agent.slug, actor.organization.slug, options.inboundDomain);
    const uuid = uuidv7(now.getTime());
    const messageId = `<agent-${uuid}@${options.inboundDomain}>`;
    const deliveryUuid = await enqueueEmail(
      trx,
      {
        organizationUuid: actor.organization.uuid,
        kind: 'agent_email',
        message: { to, subject: input.subject, text: htmlToText(input.body_html), html: input.body_html, replyTo, headers: { 'Message-ID': messageId } },
      },
      now,
    );
    await trx('agent_emails').insert({
      uuid,
      organization_uuid: actor.organization.uuid,
      agent_uuid: agent.uuid,
      message_id: messageId,
      subject: input.subject,
      recipients: writeJson(to),
      metadata: writeJson(input.metadata ?? {}),
      delivery_uuid: deliveryUuid,
      created_at: now.toISOString(),
    });
    return { to, replyTo, messageId };
  });
}

const stripBrackets = (id: string) => id.trim().replace(/^<|>$/g, '').toLowerCase();

/**
 * The inbound route for agent inboxes: a message to `<agent-slug>.<org-slug>@<domain>`, or one whose
 * In-Reply-To/References names an e-mail an agent sent, becomes an agent message (`message_type: email`,
 * `metadata: {from, subject, message_id, in_reply_to, thread_message_id}`). Returns false when it is for no agent.
 */
export function agentInboxHandler(deps: { db: Db; logger: Logger; domain: () => string; kick: () => void; now: () => Date }) {
  return async function routeToAgent(mail: InboundEmail): Promise<boolean> {
    const domain = deps.domain().toLowerCase();
    const now = deps.now();
    const created = await deps.db.transaction(async (trx) => {
      let agent: AgentRow | null = null;
      for (const address of mail.to) {
        const [local, host] = address.toLowerCase().split('@');
        if (host !== domain || !local) continue;
        const dot = local.indexOf('.');
        if (dot <= 0) continue;
        const org = await trx('organizations').where({ slug: local.slice(dot + 1) }).first('uuid');
        if (!org) continue;
        agent = (await trx('agents').where({ organization_uuid: org.uuid, slug: local.slice(0, dot) }).first()) ?? null;
        if (agent) break;
      }
      // Threading by Message-ID: the e-mail the reply answers.
      const referenced = [mail.inReplyTo, ...mail.references].filter((id): id is string => !!id);
      let original: { agent_uuid: string; message_id: string } | null = null;
      for (const id of referenced.reverse()) {
        const wanted = `<${stripBrackets(id)}>`;
        original = (await trx('agent_emails').whereRaw('lower(message_id) = ?', [wanted]).first('agent_uuid', 'message_id')) ?? null;
        if (original) break;
      }
      if (!agent && original) agent = (await trx('agents').where({ uuid: original.agent_uuid }).first()) ?? null;
      if (!agent) return null;
      if (mail.messageId) {
        const duplicate = await trx('agent_messages').where({ agent_uuid: agent.uuid, email_message_id: mail.messageId }).first('uuid');
        if (duplicate) return duplicate;
      }
      const content = mail.replyText || mail.text || mail.subject;
      return createMessage(
        trx,
        agent,
        {
          senderType: 'human',
          senderName: mail.fromName ?? mail.from,
          messageType: 'email',
          content,
          metadata: {
            from: mail.from,
            subject: mail.subject,
            message_id: mail.messageId,
            in_reply_to: mail.inReplyTo,
            thread_message_id: original && original.agent_uuid === agent.uuid ? original.message_id : null,
          },
          emailMessageId: mail.messageId,
        },
        now,
      );
    });
    if (!created) return false;
    deps.kick();
    return true;
  };
}
