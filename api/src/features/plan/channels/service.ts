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

export async function listChannels(r: PlanRead, chat: ChatAccess, type: ChannelType | undefined): Promise<ChannelItem[]> {
  const { actor } = r;
  const connection = await requireConnection(r.db, chat.box, actor.organization.uuid);
  const platform = PLATFORMS[connection.platform];
  const access = { connection, http: chat.http, config: chat.config };
  try {
    if (type === 'channel') {
      // A person's own direct message: the platform takes their account id as its channel (Slack).
      if (!platform.findPerson || !(await sendsDirectMessages(r.db, actor.organization.uuid, connection.platform))) return [];
      const userId = await platform.findPerson(access, actor.user.email);
      if (!userId) throw new PersonNotFound(connection.platform, actor.user.email);
      return [item(userId, `Direct message to ${actor.user.email}`, 'personal', connection.platform)];
    }
    // Incoming-webhook platforms post to the one channel they were connected with (public, for this list).
    const channels = (await platform.channels(access)).map((c) => item(c.id, c.name, c.type === 'private' ? 'private' : 'public', connection.platform));
    return type ? channels.filter((c) => c.type === type) : channels;
  } catch (err) {
    return platformFailure(err);
  }
}
