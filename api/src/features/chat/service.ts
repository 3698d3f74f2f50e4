import type { Config } from '../../lib/config.ts';
import type { Db, Executor } from '../../db/connection.ts';
import { ApiError, ValidationFailed, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { enqueueMany } from '../../outbox/deliveries.ts';
import { fullName } from '../../lib/names.ts';
import { awayToday } from '../../db/time-off.ts';
import { getConnection, requireConnection, requirePlatform } from './connection.ts';
import { PlatformError, SlackApi } from './platforms.ts';
import type { ChatPost } from './platforms.ts';
import type { ChatPayload, ChatTarget } from './sender.ts';
import { targetKey } from './sender.ts';
import type { OpenConversationInput, SendMessageInput } from './schema.ts';
import type { Platform } from '../../db/tables.ts';

const SLACK_EXTRA_KEYS = ['unfurl_links', 'unfurl_media', 'icon_emoji', 'icon_url', 'username', 'link_names', 'mrkdwn'];

async function usersOf(db: Db, organizationUuid: string, userUuids: string[], teamUuids: string[]) {
  const fromTeams: string[] = teamUuids.length
    ? (
        await db('team_members as m')
          .join('teams as t', 't.uuid', 'm.team_uuid')
          .where('t.organization_uuid', organizationUuid)
          .whereIn('m.team_uuid', teamUuids)
          .select('m.user_uuid')
      ).map((r: { user_uuid: string }) => r.user_uuid)
    : [];
  if (teamUuids.length) {
    const found = await db('teams').where({ organization_uuid: organizationUuid }).whereIn('uuid', teamUuids).select('uuid');
    const missing = teamUuids.filter((t) => !found.some((f: { uuid: string }) => f.uuid === t));
    if (missing.length) throw new ValidationFailed({ target_teams: [`No team with this id in your organization: ${missing.join(', ')}.`] });
  }
  const wanted = [...new Set([...userUuids, ...fromTeams])];
  if (wanted.length === 0) return [];
  const users = await db('users').where({ organization_uuid: organizationUuid }).whereIn('uuid', wanted).select('uuid', 'email', 'first_name', 'last_name', 'is_active', 'timezone');
  const missing = userUuids.filter((u) => !users.some((f: { uuid: string }) => f.uuid === u));
  if (missing.length) throw new ValidationFailed({ target_users: [`No user with this id in your organization: ${missing.join(', ')}.`] });
  // In the caller's order (a DM's member list, mentions), whatever order the database returns.
  users.sort((a: { uuid: string }, b: { uuid: string }) => wanted.indexOf(a.uuid) - wanted.indexOf(b.uuid));
  return users.filter((u: { is_active: unknown }) => u.is_active === true || u.is_active === 1);
}

/**
 * POST /v1/send-message/: one chat delivery per target (Slack: each channel and each user's DM; webhook
 * platforms: the one connected channel, naming the users). `bot_message_id` of an earlier message edits it
 * where the platform allows (Slack chat.update, Discord message edit) and posts anew where it does not.
 */
export async function sendMessage(db: Db, actor: Actor, input: SendMessageInput, now: Date) {
  const platform = await requirePlatform(db, actor.organization.uuid);
  const text = input.message ?? input.messages?.join('\n\n');
  if (!text) throw new ValidationFailed({ message: ['Give message or messages.'] });
  let users = await usersOf(db, actor.organization.uuid, input.target_users ?? [], input.target_teams ?? []);
  if (input.skip_users_on_time_off) {
    const away = await awayToday(db, users, actor.organization.timezone, now);
    users = users.filter((u: { uuid: string }) => !away.has(u.uuid));
  }
  const channels = [...new Set(input.target_channels ?? [])];
  if (channels.length === 0 && users.length === 0 && !(input.target_users?.length || input.target_teams?.length)) {
    throw new ValidationFailed({ non_field_errors: ['Give at least one target: target_users, target_channels or target_teams.'] });
  }
  let edit = false;
  let botMessageId = uuidv7(now.getTime());
  if (input.bot_message_id) {
    const existing = await db('chat_messages').where({ uuid: input.bot_message_id, organization_uuid: actor.organization.uuid }).first('uuid');
    if (!existing) throw notFound();
    botMessageId = existing.uuid;
    edit = true;
  }

  const settings = (input.platform_settings ?? {}) as Record<string, unknown>;
  const slackExtra = Object.fromEntries(Object.entries(settings).filter(([k]) => SLACK_EXTRA_KEYS.includes(k)));
  if (input.send_as_user) slackExtra.username = fullName(actor.user);
  const post = { buttons: input.buttons ?? [], imageUrl: input.image_url ?? null };
  const targets = await db.transaction((trx) =>
    enqueueChatPost(trx, { organizationUuid: actor.organization.uuid, platform, botMessageId, edit, text, channels, users, post, thread: input.thread_responses ?? [], slackExtra }, now),
  );
  return { botMessageId, targets, threadResponses: input.thread_responses ?? [] };
}

export interface ChatPostRequest {
  organizationUuid: string;
  platform: Platform;
  /** The chat_messages row the post is recorded under (edits find it again); created unless `edit`. */
  botMessageId?: string;
  edit?: boolean;
  text: string;
  /** Slack channel ids (other platforms post to their one connected channel). */
  channels: string[];
  /** People to reach: a DM each on Slack, named with @ in the post elsewhere. */
  users: { email: string; first_name: string; last_name: string }[];
  post?: Pick<ChatPost, 'buttons' | 'imageUrl'>;
  thread?: string[];
  slackExtra?: Record<string, unknown>;
  kind?: string;
  /** The object the deliveries report to (a workflow run's action, a kudos). */
  subjectUuid?: string | null;
}

/**
 * Writes the outbox rows of one chat post: one per target (Slack: each channel and each person's DM; webhook
 * platforms: the connected channel, naming the people). Call inside the transaction of the change that causes
 * the post: send-message, kudos announcements and workflow actions share it. Returns the number of deliveries.
 */
export async function enqueueChatPost(trx: Executor, request: ChatPostRequest, now: Date): Promise<number> {
  const botMessageId = request.botMessageId ?? uuidv7(now.getTime());
  const edit = request.edit ?? false;
  if (!edit) {
    await trx('chat_messages').insert({ uuid: botMessageId, organization_uuid: request.organizationUuid, platform: request.platform, refs: '{}', created_at: now.toISOString(), updated_at: now.toISOString() });
  }
  const targets: ChatTarget[] = [];
  let body = request.text;
  if (request.platform === 'slack') {
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
      // Posts of one organization go out in order (an edit never overtakes its message).
      orderingKey: `chat:${request.organizationUuid}`,
      refUuid: botMessageId,
      subjectUuid: request.subjectUuid ?? null,
    };
  });
  await enqueueMany(trx, deliveries, now);
  return deliveries.length;
}

function platformFailure(err: unknown): never {
  if (err instanceof PlatformError) throw new ApiError(502, 'platform_error', `The chat platform refused the request (${err.message}).`);
  throw new ApiError(502, 'platform_unreachable', 'The chat platform could not be reached.');
}

/** A channel reports can go to. */
export interface ReportChannel {
  id: string;
  name: string;
  platform: string;
  type: 'webhook' | 'private' | 'public';
}

/** The channels reports can go to: none while no platform is connected (listing is not sending; nothing to refuse). */
export async function reportChannels(db: Db, box: SecretBox, http: OutboundHttp, config: Config, actor: Actor): Promise<ReportChannel[]> {
  const connection = await getConnection(db, box, actor.organization.uuid);
  if (!connection) return [];
  if (connection.platform !== 'slack') {
    return [{ id: 'default', name: connection.channelName ?? 'Incoming webhook channel', platform: connection.platform, type: 'webhook' }];
  }
  try {
    const channels = await new SlackApi(http, config.chat.slackApiUrl, connection.botToken ?? '').listChannels();
    return channels.map((c) => ({ id: c.id, name: c.name, platform: 'slack', type: c.is_private ? 'private' : 'public' }));
  } catch (err) {
    return platformFailure(err);
  }
}

/** POST /v1/open-conversation/ `{users_uuids}`: the channel of a Slack group DM (or DM); webhook platforms have one channel. */
export async function openConversation(db: Db, box: SecretBox, http: OutboundHttp, config: Config, actor: Actor, input: OpenConversationInput): Promise<string> {
  const connection = await requireConnection(db, box, actor.organization.uuid);
  const users = await usersOf(db, actor.organization.uuid, input.users_uuids, []);
  if (connection.platform !== 'slack') return 'default';
  const slack = new SlackApi(http, config.chat.slackApiUrl, connection.botToken ?? '');
  try {
    const ids: string[] = [];
    for (const u of users) ids.push(await slack.userIdByEmail(u.email));
    return await slack.openConversation(ids);
  } catch (err) {
    return platformFailure(err);
  }
}

