import type { OutboundHttp, OutboundResponse } from '../../outbound/outbound-http.ts';
import { retryAfterMs } from '../../outbound/outbound-http.ts';

/** What one chat post says, independent of the platform. */
export interface ChatPost {
  text: string;
  buttons: { text: string; url: string; style?: string }[];
  imageUrl: string | null;
}

export class PlatformError extends Error {
  readonly statusCode: number | null;
  readonly permanent: boolean;
  readonly retryAfterMs: number | null;
  constructor(message: string, options: { statusCode?: number | null; permanent?: boolean; retryAfterMs?: number | null } = {}) {
    super(message);
    this.statusCode = options.statusCode ?? null;
    this.permanent = options.permanent ?? false;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

function check(res: OutboundResponse, what: string): void {
  if (res.status >= 200 && res.status < 300) return;
  throw new PlatformError(`${what}: HTTP ${res.status}`, {
    statusCode: res.status,
    permanent: res.status === 400 || res.status === 401 || res.status === 403 || res.status === 404 || res.status === 410,
    retryAfterMs: retryAfterMs(res.headers['retry-after'], new Date()),
  });
}

const parse = (res: OutboundResponse): Record<string, unknown> => {
  try {
    return JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    return {};
  }
};

// ---------------------------------------------------------------- Slack (bot token, Web API)

const SLACK_PERMANENT = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'channel_not_found', 'not_in_channel', 'is_archived', 'users_not_found', 'user_not_found', 'missing_scope', 'message_not_found', 'cant_update_message', 'msg_too_long', 'no_text', 'invalid_blocks']);

/** Slack Web API: JSON bodies with `Authorization: Bearer xoxb-…`; HTTP 200 with `{ok: false, error}` is a failure. */
export class SlackApi {
  readonly #http: OutboundHttp;
  readonly #base: string;
  readonly #token: string;
  constructor(http: OutboundHttp, base: string, token: string) {
    this.#http = http;
    this.#base = base;
    this.#token = token;
  }

  async call(method: string, body: Record<string, unknown> | null, query?: Record<string, string>): Promise<Record<string, unknown>> {
    const url = new URL(`${this.#base}/${method}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    const res = await this.#http.send({
      method: body ? 'POST' : 'GET',
      url: url.toString(),
      headers: { authorization: `Bearer ${this.#token}`, ...(body ? { 'content-type': 'application/json; charset=utf-8' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.status === 429) throw new PlatformError(`slack ${method}: rate limited`, { statusCode: 429, retryAfterMs: retryAfterMs(res.headers['retry-after'], new Date()) });
    check(res, `slack ${method}`);
    const json = parse(res);
    if (json.ok !== true) {
      const error = String(json.error ?? 'unknown_error');
      throw new PlatformError(`slack ${method}: ${error}`, { statusCode: res.status, permanent: SLACK_PERMANENT.has(error) });
    }
    return json;
  }

  async userIdByEmail(email: string): Promise<string> {
    const json = await this.call('users.lookupByEmail', null, { email });
    return String((json.user as { id?: string })?.id ?? '');
  }

  async openConversation(userIds: string[]): Promise<string> {
    const json = await this.call('conversations.open', { users: userIds.join(',') });
    return String((json.channel as { id?: string })?.id ?? '');
  }

  async listChannels(): Promise<{ id: string; name: string; is_private?: boolean }[]> {
    const channels: { id: string; name: string; is_private?: boolean }[] = [];
    let cursor = '';
    for (let page = 0; page < 20; page++) {
      const json = await this.call('conversations.list', null, { types: 'public_channel,private_channel', exclude_archived: 'true', limit: '200', ...(cursor ? { cursor } : {}) });
      channels.push(...((json.channels as typeof channels) ?? []));
      cursor = String((json.response_metadata as { next_cursor?: string })?.next_cursor ?? '');
      if (!cursor) break;
    }
    return channels;
  }
}

/** Slack message: `text` (notification fallback) plus Block Kit blocks for image and link buttons. */
export function slackMessage(post: ChatPost): Record<string, unknown> {
  const blocks: Record<string, unknown>[] = [{ type: 'section', text: { type: 'mrkdwn', text: post.text.slice(0, 3000) } }];
  if (post.imageUrl) blocks.push({ type: 'image', image_url: post.imageUrl, alt_text: 'image' });
  if (post.buttons.length) {
    blocks.push({
      type: 'actions',
      elements: post.buttons.map((b, i) => ({
        type: 'button',
        action_id: `rollcall_button_${i}`,
        text: { type: 'plain_text', text: b.text },
        url: b.url,
        ...(b.style === 'primary' || b.style === 'danger' ? { style: b.style } : {}),
      })),
    });
  }
  return { text: post.text, blocks };
}

// ---------------------------------------------------------------- Incoming webhooks

/** Microsoft Teams incoming webhook: a message with one Adaptive Card attachment. */
export function teamsMessage(post: ChatPost): Record<string, unknown> {
  const body: Record<string, unknown>[] = [{ type: 'TextBlock', text: post.text, wrap: true }];
  if (post.imageUrl) body.push({ type: 'Image', url: post.imageUrl });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(post.buttons.length ? { actions: post.buttons.map((b) => ({ type: 'Action.OpenUrl', title: b.text, url: b.url })) } : {}),
        },
      },
    ],
  };
}

/** Discord execute-webhook body: `content` (≤ 2000 characters); link buttons become Markdown links; no pings. */
export function discordMessage(post: ChatPost): Record<string, unknown> {
  const links = post.buttons.map((b) => `[${b.text}](${b.url})`).join(' · ');
  const content = [post.text, links].filter(Boolean).join('\n\n').slice(0, 2000);
  return { content, allowed_mentions: { parse: [] }, ...(post.imageUrl ? { embeds: [{ image: { url: post.imageUrl } }] } : {}) };
}

/** Google Chat incoming webhook: `text`, plus a cardsV2 card for the image and buttons. */
export function googleChatMessage(post: ChatPost, cardId: string): Record<string, unknown> {
  if (!post.imageUrl && post.buttons.length === 0) return { text: post.text };
  const widgets: Record<string, unknown>[] = [];
  if (post.imageUrl) widgets.push({ image: { imageUrl: post.imageUrl } });
  if (post.buttons.length) widgets.push({ buttonList: { buttons: post.buttons.map((b) => ({ text: b.text, onClick: { openLink: { url: b.url } } })) } });
  return { text: post.text, cardsV2: [{ cardId, card: { sections: [{ widgets }] } }] };
}

export async function postWebhook(http: OutboundHttp, method: 'POST' | 'PATCH', url: string, body: Record<string, unknown>, what: string): Promise<Record<string, unknown>> {
  const res = await http.send({ method, url, headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Rollcall/1.0' }, body: JSON.stringify(body) });
  check(res, what);
  return parse(res);
}
