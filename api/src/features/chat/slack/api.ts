import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { retryAfterMs } from '../../../outbound/outbound-http.ts';
import { PlatformError, checkStatus, parseJsonBody } from '../../chat-platform/platform-http.ts';

/** Errors that repeat however often the call is made again: the delivery fails at once. */
const PERMANENT = new Set([
  'invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'channel_not_found', 'not_in_channel', 'is_archived', 'users_not_found', 'user_not_found',
  'missing_scope', 'message_not_found', 'cant_update_message', 'msg_too_long', 'no_text', 'invalid_blocks', 'invalid_arguments', 'expired_trigger_id', 'invalid_trigger_id',
]);

/**
 * Slack's Web API (SLACK_API_URL, https://slack.com/api by default): JSON bodies with `Authorization: Bearer
 * xoxb-…`; HTTP 200 with `{ok: false, error}` is a failure. Our own small client rather than @slack/web-api: every
 * call goes through OutboundHttp (the outbound address policy, one connection pool, our timeouts) and the
 * delivery outbox decides about retries, where the SDK would bring its own HTTP client and retry queue.
 */
export class SlackApi {
  readonly #http: OutboundHttp;
  readonly #base: string;
  readonly #token: string;
  readonly #timeoutMs: number | undefined;
  /** `timeoutMs`: for the calls a request of Slack's waits on (views.open, users.info), well within its 3 s. */
  constructor(http: OutboundHttp, base: string, token: string, timeoutMs?: number) {
    this.#http = http;
    this.#base = base;
    this.#token = token;
    this.#timeoutMs = timeoutMs;
  }

  async call(method: string, body: Record<string, unknown> | null, query?: Record<string, string>): Promise<Record<string, unknown>> {
    const url = new URL(`${this.#base}/${method}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    const res = await this.#http.send({
      method: body ? 'POST' : 'GET',
      url: url.toString(),
      headers: { authorization: `Bearer ${this.#token}`, ...(body ? { 'content-type': 'application/json; charset=utf-8' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      timeoutMs: this.#timeoutMs,
    });
    if (res.status === 429) throw new PlatformError(`slack ${method}: rate limited`, { statusCode: 429, retryAfterMs: retryAfterMs(res.headers['retry-after'], new Date()) });
    checkStatus(res, `slack ${method}`);
    const json = parseJsonBody(res);
    if (json.ok !== true) {
      const error = String(json.error ?? 'unknown_error');
      throw new PlatformError(`slack ${method}: ${error}`, { statusCode: res.status, permanent: PERMANENT.has(error) });
    }
    return json;
  }

  /** The Slack user with this e-mail, or null when the workspace has none (`users_not_found`). */
  async userIdByEmail(email: string): Promise<string | null> {
    try {
      const json = await this.call('users.lookupByEmail', null, { email });
      return String((json.user as { id?: string })?.id ?? '') || null;
    } catch (err) {
      if (err instanceof PlatformError && err.message.endsWith(': users_not_found')) return null;
      throw err;
    }
  }

  /** A Slack user's e-mail (`users.info`, scope users:read.email); null when the profile shows none. */
  async emailOf(userId: string): Promise<string | null> {
    const json = await this.call('users.info', null, { user: userId });
    const email = (json.user as { profile?: { email?: unknown } })?.profile?.email;
    return typeof email === 'string' && email.includes('@') ? email : null;
  }

  /** The workspace the bot token belongs to (`auth.test`). */
  async teamId(): Promise<string> {
    const json = await this.call('auth.test', {});
    const team = json.team_id;
    if (typeof team !== 'string' || team === '') throw new PlatformError('slack auth.test: no team_id in the answer');
    return team;
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
