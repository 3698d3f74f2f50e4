import type { Config } from '../../lib/config.ts';
import type { Db } from '../../db/connection.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { errorResult } from '../../outbound/http-sender.ts';
import { saveProgress } from '../../outbox/deliveries.ts';
import type { SendResult } from '../../outbound/types.ts';
import type { DeliveryRow, Platform } from '../../db/tables.ts';
import { getConnection } from '../chat-platform/connection.ts';
import { targetKey } from '../chat-platform/enqueue.ts';
import { personId } from '../chat-platform/people.ts';
import { PlatformError } from '../chat-platform/platform-http.ts';
import { bodyOf } from '../chat-platform/platform.ts';
import type { ChatPayload, ChatPlatform, MessageRef } from '../chat-platform/platform.ts';

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

/**
 * The `chat` channel's sender: hands each step of a delivery (the post, then each thread reply) to its
 * platform's `send`, recording progress after each, so a retry resumes where it stopped. A platform error the
 * platform calls permanent fails the delivery; others are retried on the outbox's schedule.
 */
export function chatSender(db: Db, box: SecretBox, http: OutboundHttp, config: Config, platforms: Readonly<Record<Platform, ChatPlatform>>) {
  return async function sendChat(row: DeliveryRow, now: Date): Promise<SendResult> {
    const payload = readJson<ChatPayload>(row.payload, null as unknown as ChatPayload);
    const t0 = performance.now();
    const connection = row.organization_uuid ? await getConnection(db, box, row.organization_uuid) : null;
    if (!connection || connection.platform !== payload.platform) {
      return { outcome: 'failed', error: 'platform_not_connected: the chat platform was disconnected or changed', durationMs: 0 };
    }
    const platform = platforms[connection.platform];
    const key = targetKey(payload.target);
    const access = { connection, http, config };
    const find = (email: string) => (platform.findPerson ? platform.findPerson(access, email) : Promise.resolve(null));
    const total = 1 + payload.thread.length;
    try {
      const body = bodyOf(platform, payload);
      while (payload.progress.step < total) {
        payload.progress = await platform.send({
          ...access, payload, body,
          personId: (email) => personId(db, { organizationUuid: connection.organizationUuid, platform: connection.platform, email }, find, now),
          refs: { get: () => existingRef(db, payload.bot_message_id, key), save: (ref) => saveRef(db, payload.bot_message_id, key, ref, now) },
        });
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
