import type { Config } from '../../lib/config.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError, ValidationFailed, notFound } from '../../lib/errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import type { Actor } from '../../auth/credentials.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { fullName } from '../../lib/names.ts';
import { awayToday } from '../../db/time-off.ts';
import { getConnection, requireConnection, requirePlatform } from '../chat-platform/connection.ts';
import { enqueueChatPost } from '../chat-platform/enqueue.ts';
import { PlatformError } from '../chat-platform/platform-http.ts';
import type { ReportChannel } from '../chat-platform/platform.ts';
import { PLATFORMS } from './platforms.ts';
import type { OpenConversationInput, SendMessageInput } from './schema.ts';

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

function platformFailure(err: unknown): never {
  if (err instanceof PlatformError) throw new ApiError(502, 'platform_error', `The chat platform refused the request (${err.message}).`);
  throw new ApiError(502, 'platform_unreachable', 'The chat platform could not be reached.');
}

/** The channels reports can go to: none while no platform is connected (listing is not sending; nothing to refuse). */
export async function reportChannels(db: Db, box: SecretBox, http: OutboundHttp, config: Config, actor: Actor): Promise<ReportChannel[]> {
  const connection = await getConnection(db, box, actor.organization.uuid);
  if (!connection) return [];
  try {
    return await PLATFORMS[connection.platform].channels({ connection, http, config });
  } catch (err) {
    return platformFailure(err);
  }
}

/** POST /v1/open-conversation/ `{users_uuids}`: the channel of a Slack group DM (or DM); webhook platforms have one channel. */
export async function openConversation(db: Db, box: SecretBox, http: OutboundHttp, config: Config, actor: Actor, input: OpenConversationInput): Promise<string> {
  const connection = await requireConnection(db, box, actor.organization.uuid);
  const users = await usersOf(db, actor.organization.uuid, input.users_uuids, []);
  const platform = PLATFORMS[connection.platform];
  if (!platform.openConversation) return 'default';
  try {
    return await platform.openConversation({ connection, http, config }, users.map((u: { email: string }) => u.email));
  } catch (err) {
    return platformFailure(err);
  }
}

