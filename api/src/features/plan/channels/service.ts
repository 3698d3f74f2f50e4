import { can } from '../../../auth/policy.ts';
import { ApiError } from '../../../lib/errors.ts';
import type { Config } from '../../../lib/config.ts';
import type { SecretBox } from '../../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { requireConnection, sendsDirectMessages } from '../../chat-platform/connection.ts';
import { PersonNotFound } from '../../chat-platform/people.ts';
import { PlatformError } from '../../chat-platform/platform-http.ts';
import { PLATFORMS } from '../../chat/platforms.ts';
import type { PlanRead } from '../frame/context.ts';

/**
 * GET /v1/plan/channels/?type=&search=: where Plan notifications and reports can go on the organization's
 * connected chat platform. Items carry `external_id` (what a notification route, a report schedule or a personal
 * destination takes as `channel`). Organization admins see the private channels the bot is in too; everyone else
 * sees public channels only (a private one is absent, not an error).
 *
 * `type`: absent lists every channel the caller may pick; `channel` (the spec's value for a personal
 * destination: a public channel) or `public` public ones; `private_channel` or `private` private ones;
 * `direct_message` the caller's own direct-message channel (it needs a person); `group_chat` none (the bot posts
 * to no group chats). `search`: names containing the text, case-insensitively.
 */
export const CHANNEL_TYPES = ['channel', 'public', 'private_channel', 'private', 'direct_message', 'group_chat'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
/** What each `type` keeps: the DailyBot client's names and ours name the same kinds. */
const KEEPS: Record<ChannelType, ChannelItem['type'] | null> = {
  channel: 'public', public: 'public', private_channel: 'private', private: 'private', direct_message: 'personal', group_chat: null,
};

export interface ChannelItem {
  external_id: string;
  id: string;
  name: string;
  type: 'public' | 'private' | 'personal';
  platform: string;
}

const item = (externalId: string, name: string, type: ChannelItem['type'], platform: string): ChannelItem => ({ external_id: externalId, id: externalId, name, type, platform });

function platformFailure(err: unknown): never {
  if (err instanceof PlatformError) throw new ApiError(502, 'platform_error', `The chat platform refused the request (${err.message}).`);
  throw new ApiError(502, 'platform_unreachable', 'The chat platform could not be reached.');
}

/** What the lookup needs besides the database: the secrets' box, outbound HTTP, and the platforms' addresses. */
export interface ChatAccess {
  box: SecretBox;
  http: OutboundHttp;
  config: Config;
}

/** The chat access of the app's services (a handler hands it to the service). */
export const chatAccess = (deps: { secretBox: SecretBox; outbound: { http: OutboundHttp }; config: Config }): ChatAccess => ({
  box: deps.secretBox,
  http: deps.outbound.http,
  config: deps.config,
});

export async function listChannels(r: PlanRead, chat: ChatAccess, type: ChannelType | undefined, search?: string): Promise<ChannelItem[]> {
  const { actor } = r;
  const connection = await requireConnection(r.db, chat.box, actor.organization.uuid);
  const kept = type === undefined ? undefined : KEEPS[type];
  const named = (channels: ChannelItem[]) => (search ? channels.filter((c) => c.name.toLowerCase().includes(search.toLowerCase())) : channels);
  if (kept === null) return [];
  const platform = PLATFORMS[connection.platform];
  const access = { connection, http: chat.http, config: chat.config };
  try {
    if (kept === 'personal') {
      // A person's own direct message: the platform takes their account id as its channel (Slack). Platforms
      // that post to one connected channel (incoming webhooks) have none.
      if (!platform.findPerson || !(await sendsDirectMessages(r.db, actor.organization.uuid, connection.platform))) return [];
      const userId = await platform.findPerson(access, actor.user.email);
      if (!userId) throw new PersonNotFound(connection.platform, actor.user.email);
      return named([item(userId, `Direct message to ${actor.user.email}`, 'personal', connection.platform)]);
    }
    // Incoming-webhook platforms post to the one channel they were connected with (public, for this list).
    const seesPrivate = can(actor, 'plan.manage_all');
    const channels = (await platform.channels(access))
      .map((c) => item(c.id, c.name, c.type === 'private' ? 'private' : 'public', connection.platform))
      .filter((c) => (kept === undefined ? seesPrivate || c.type === 'public' : c.type === kept && (seesPrivate || kept === 'public')));
    return named(channels);
  } catch (err) {
    return platformFailure(err);
  }
}

/**
 * A channel as the DailyBot client shows where something goes: `{external_id, name}`, its name looked up on the
 * platform (the id again when it cannot be: nothing is refused for it). Asks the platform: before a transaction.
 */
export async function channelLabel(r: PlanRead, chat: ChatAccess, externalId: string): Promise<{ external_id: string; name: string }> {
  try {
    const found = (await listChannels(r, chat, undefined)).find((c) => c.external_id === externalId);
    return { external_id: externalId, name: found?.name ?? externalId };
  } catch {
    return { external_id: externalId, name: externalId };
  }
}
