import type { Config } from '../../lib/config.ts';
import type { Db } from '../../db/connection.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { errorResult } from '../../outbound/http-sender.ts';
import { saveProgress } from '../../outbox/deliveries.ts';
import type { SendResult } from '../../outbound/types.ts';
import { getConnection } from './connection.ts';
import type { ChatConnection } from './connection.ts';
import { PlatformError, SlackApi, discordMessage, googleChatMessage, postWebhook, slackMessage, teamsMessage } from './platforms.ts';
import type { ChatPost } from './platforms.ts';
import type { DeliveryRow, Platform } from '../../db/tables.ts';

export type ChatTarget = { type: 'channel'; id: string } | { type: 'user'; email: string } | { type: 'webhook' };

/** The payload of a `chat` delivery: one post (plus its thread replies) to one target. */
export interface ChatPayload {
  platform: Platform;
  bot_message_id: string;
  target: ChatTarget;
  edit: boolean;
  post: ChatPost;
  thread: string[];
  slack_extra: Record<string, unknown>;
  /** Steps done so far (0 = the main post, then each thread reply), so a retry resumes where it stopped. */
  progress: { step: number; channel?: string; ts?: string; message_id?: string };
}

export interface MessageRef {
  channel?: string;
  ts?: string;
  message_id?: string;
}

export const targetKey = (t: ChatTarget) => (t.type === 'channel' ? `channel:${t.id}` : t.type === 'user' ? `user:${t.email}` : 'webhook');

async function saveRef(db: Db, botMessageId: string, key: string, ref: MessageRef, now: Date): Promise<void> {
  const row = await db('chat_messages').where({ uuid: botMessageId }).first('refs');
  if (!row) return;
  const refs = readJson<Record<string, MessageRef>>(row.refs, {});
  refs[key] = ref;
  await db('chat_messages').where({ uuid: botMessageId }).update({ refs: writeJson(refs), updated_at: now.toISOString() });
}

async function existingRef(db: Db, botMessageId: string, key: string): Promise<MessageRef | null> {
  const row = await db('chat_messages').where({ uuid: botMessageId }).first('refs');
  return row ? (readJson<Record<string, MessageRef>>(row.refs, {})[key] ?? null) : null;
}

function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

/** Performs the next step; returns the updated progress. */
async function step(db: Db, http: OutboundHttp, config: Config, c: ChatConnection, p: ChatPayload, now: Date): Promise<ChatPayload['progress']> {
  const progress = { ...p.progress };
  const key = targetKey(p.target);
  const main = progress.step === 0;
  const replyPost: ChatPost = { text: p.thread[progress.step - 1] ?? '', buttons: [], imageUrl: null };

  if (c.platform === 'slack') {
    const slack = new SlackApi(http, config.chat.slackApiUrl, c.botToken ?? '');
    if (!progress.channel) {
      progress.channel = p.target.type === 'user'
        ? await slack.openConversation([await slack.userIdByEmail(p.target.email)])
        : p.target.type === 'channel' ? p.target.id : '';
    }
    if (main) {
      const ref = p.edit ? await existingRef(db, p.bot_message_id, key) : null;
      const json = ref?.ts
        ? await slack.call('chat.update', { channel: ref.channel ?? progress.channel, ts: ref.ts, ...slackMessage(p.post) })
        : await slack.call('chat.postMessage', { channel: progress.channel, ...p.slack_extra, ...slackMessage(p.post) });
      progress.ts = String(json.ts ?? ref?.ts ?? '');
      progress.channel = String(json.channel ?? progress.channel);
      await saveRef(db, p.bot_message_id, key, { channel: progress.channel, ts: progress.ts }, now);
    } else {
      await slack.call('chat.postMessage', { channel: progress.channel, text: replyPost.text, thread_ts: progress.ts });
    }
  } else if (c.platform === 'discord') {
    const url = c.webhookUrl ?? '';
    if (main) {
      const ref = p.edit ? await existingRef(db, p.bot_message_id, key) : null;
      const json = ref?.message_id
        ? await postWebhook(http, 'PATCH', `${url.replace(/\/+$/, '')}/messages/${ref.message_id}`, discordMessage(p.post), 'discord edit')
        : await postWebhook(http, 'POST', withQuery(url, { wait: 'true' }), discordMessage(p.post), 'discord');
      progress.message_id = String(json.id ?? ref?.message_id ?? '');
      await saveRef(db, p.bot_message_id, key, { message_id: progress.message_id }, now);
    } else {
      await postWebhook(http, 'POST', withQuery(url, { wait: 'true' }), discordMessage(replyPost), 'discord');
    }
  } else if (c.platform === 'google_chat') {
    // Replies share the message's thread key; incoming webhooks cannot edit, so an edit is a new post in the thread.
    const url = withQuery(c.webhookUrl ?? '', { threadKey: p.bot_message_id, messageReplyOption: 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' });
    const json = await postWebhook(http, 'POST', url, main ? googleChatMessage(p.post, `rollcall-${p.bot_message_id}`) : { text: replyPost.text }, 'google chat');
    if (main) await saveRef(db, p.bot_message_id, key, { message_id: String(json.name ?? '') }, now);
  } else {
    // Teams incoming webhooks neither thread nor edit: replies and edits are posted in order.
    await postWebhook(http, 'POST', c.webhookUrl ?? '', teamsMessage(main ? p.post : replyPost), 'microsoft teams');
  }
  progress.step += 1;
  return progress;
}

/** The `chat` channel's sender: posts, then thread replies, recording progress after each step. */
export function chatSender(db: Db, box: SecretBox, http: OutboundHttp, config: Config) {
  return async function sendChat(row: DeliveryRow, now: Date): Promise<SendResult> {
    const payload = readJson<ChatPayload>(row.payload, null as unknown as ChatPayload);
    const t0 = performance.now();
    const connection = row.organization_uuid ? await getConnection(db, box, row.organization_uuid) : null;
    if (!connection || connection.platform !== payload.platform) {
      return { outcome: 'failed', error: 'platform_not_connected: the chat platform was disconnected or changed', durationMs: 0 };
    }
    const total = 1 + payload.thread.length;
    try {
      while (payload.progress.step < total) {
        payload.progress = await step(db, http, config, connection, payload, now);
        await saveProgress(db, row.uuid, payload);
      }
      return { outcome: 'delivered', statusCode: 200, durationMs: Math.round(performance.now() - t0), payload };
    } catch (err) {
      const durationMs = Math.round(performance.now() - t0);
      if (err instanceof PlatformError) {
        return { outcome: err.permanent ? 'failed' : 'retry', statusCode: err.statusCode, error: err.message, retryAfterMs: err.retryAfterMs, durationMs, payload };
      }
      return { ...errorResult(err, durationMs), payload };
    }
  };
}
