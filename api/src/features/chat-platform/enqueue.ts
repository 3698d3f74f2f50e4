import type { Executor } from '../../db/connection.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { fullName } from '../../lib/names.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { enqueueMany } from '../../outbox/deliveries.ts';
import type { Platform } from '../../db/tables.ts';
import { sendsDirectMessages } from './connection.ts';
import type { ChatMessage, ChatPayload, ChatPost, ChatTarget } from './platform.ts';

export const targetKey = (t: ChatTarget) => (t.type === 'channel' ? `channel:${t.id}` : t.type === 'user' ? `user:${t.email.toLowerCase()}` : 'webhook');

/** Posts to one target share a key (an outbox key holds at most 200 characters: a long address is hashed). */
function orderingKey(organizationUuid: string, target: ChatTarget): string {
  const key = `chat:${organizationUuid}:${targetKey(target)}`;
  return key.length <= 200 ? key : `chat:${organizationUuid}:${sha256Hex(targetKey(target))}`;
}

export interface ChatPostRequest {
  organizationUuid: string;
  platform: Platform;
  /** The chat_messages row the post is recorded under (edits find it again); created unless `edit`. */
  botMessageId?: string;
  edit?: boolean;
  /** The text every platform can show (the fallback beside a card). */
  text: string;
  /** A card the platform renders its own way (a prompt, a report); a plain post without. */
  message?: ChatMessage;
  /** Channel ids of the platform (platforms without direct messages post to their one connected channel). */
  channels: string[];
  /** People to reach: a direct message each where the platform has them, named with @ in the post elsewhere. */
  users: { email: string; first_name: string; last_name: string }[];
  post?: Pick<ChatPost, 'buttons' | 'imageUrl'>;
  thread?: string[];
  slackExtra?: Record<string, unknown>;
  kind?: string;
  /** The object the deliveries report to (a prompt, a report, a workflow run's action, a kudos). */
  subjectUuid?: string | null;
}

/**
 * Writes the outbox rows of one chat post: one per target (a direct-message platform: each channel and each
 * person; the others: the connected channel, naming the people). Call inside the transaction of the change that
 * causes the post: send-message, prompts, reports, kudos announcements and workflow actions share it. Returns
 * the number of deliveries.
 */
export async function enqueueChatPost(trx: Executor, request: ChatPostRequest, now: Date): Promise<number> {
  const botMessageId = request.botMessageId ?? uuidv7(now.getTime());
  const edit = request.edit ?? false;
  if (!edit) {
    await trx('chat_messages').insert({ uuid: botMessageId, organization_uuid: request.organizationUuid, platform: request.platform, refs: '{}', created_at: now.toISOString(), updated_at: now.toISOString() });
  }
  const targets: ChatTarget[] = [];
  let body = request.text;
  if (await sendsDirectMessages(trx, request.organizationUuid, request.platform)) {
    for (const id of request.channels) targets.push({ type: 'channel', id });
    for (const u of request.users) targets.push({ type: 'user', email: u.email });
  } else {
    targets.push({ type: 'webhook' });
    if (request.users.length) body = `${request.users.map((u) => `@${fullName(u)}`).join(' ')} ${request.text}`;
  }
  const deliveries = targets.map((target) => {
    const payload: ChatPayload = {
      platform: request.platform,
      bot_message_id: botMessageId,
      target,
      edit,
      post: { text: body, buttons: request.post?.buttons ?? [], imageUrl: request.post?.imageUrl ?? null },
      ...(request.message && request.message.kind !== 'post' ? { message: request.message } : {}),
      thread: request.thread ?? [],
      slack_extra: request.slackExtra ?? {},
      progress: { step: 0 },
    };
    return {
      organizationUuid: request.organizationUuid,
      channel: 'chat' as const,
      kind: request.kind ?? (edit ? 'chat.update' : 'chat.message'),
      destination: `${request.platform}:${targetKey(target)}`,
      payload,
      // Posts to one target go out in order (an edit never overtakes its message); targets go side by side.
      orderingKey: orderingKey(request.organizationUuid, target),
      refUuid: botMessageId,
      subjectUuid: request.subjectUuid ?? null,
    };
  });
  await enqueueMany(trx, deliveries, now);
  return deliveries.length;
}
