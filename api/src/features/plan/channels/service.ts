import { ApiError } from '../../../lib/errors.ts';
import type { SecretBox } from '../../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { requireConnection } from '../../chat/connection.ts';
import { PlatformError, SlackApi } from '../../chat/platforms.ts';
import type { PlanRead } from '../frame/context.ts';

/**
 * GET /v1/plan/channels/?type=: where Plan notifications and reports can go on the organization's connected chat
 * platform. Items carry `external_id` (what a notification route or a report schedule takes as `channel`).
 *
 * `type`: absent lists every channel (public and private); `public` or `private` one kind; `channel` is the
 * spec's value for a personal destination: the caller's own direct-message channel (it needs a person).
 */
export const CHANNEL_TYPES = ['public', 'private', 'channel'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

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

/** What the lookup needs besides the database: the secrets' box, outbound HTTP, and Slack's API address. */
export interface ChatAccess {
  box: SecretBox;
  http: OutboundHttp;
  slackApiUrl: string;
}

/** The chat access of the app's services (a handler hands it to the service). */
export const chatAccess = (deps: { secretBox: SecretBox; outbound: { http: OutboundHttp }; config: { chat: { slackApiUrl: string } } }): ChatAccess => ({
  box: deps.secretBox,
  http: deps.outbound.http,
  slackApiUrl: deps.config.chat.slackApiUrl,
});

export async function listChannels(r: PlanRead, chat: ChatAccess, type: ChannelType | undefined): Promise<ChannelItem[]> {
  const { actor } = r;
  const connection = await requireConnection(r.db, chat.box, actor.organization.uuid);
  if (connection.platform !== 'slack') {
    // Incoming-webhook platforms post to the one channel they were connected with; there is no direct message.
    if (type === 'channel' || type === 'private') return [];
    return [item('default', connection.channelName ?? 'Incoming webhook channel', 'public', connection.platform)];
  }
  const slack = new SlackApi(chat.http, chat.slackApiUrl, connection.botToken ?? '');
  try {
    if (type === 'channel') {
      // Slack takes a user id as the channel of a direct message from the app.
      const userId = await slack.userIdByEmail(actor.user.email);
      return [item(userId, `Direct message to ${actor.user.email}`, 'personal', 'slack')];
    }
    const channels = (await slack.listChannels()).map((c) => item(c.id, c.name, c.is_private ? 'private' : 'public', 'slack'));
    return type ? channels.filter((c) => c.type === type) : channels;
  } catch (err) {
    return platformFailure(err);
  }
}
