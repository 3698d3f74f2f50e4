import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { PlatformError, checkStatus, parseJsonBody } from '../../chat-platform/platform-http.ts';

/**
 * Mattermost's REST API (`{server}/api/v4`), with the bot account's access token (`Authorization: Bearer`). Our
 * own small client, like Slack's: every call goes through OutboundHttp (the outbound address policy, one pool,
 * our timeouts) and the delivery outbox decides about retries; the official `@mattermost/client` would bring its
 * own fetch and a browser-first build for the dozen calls used here.
 */
export class MattermostApi {
  readonly #http: OutboundHttp;
  readonly #base: string;
  readonly #token: string;
  readonly #timeoutMs: number | undefined;
  constructor(http: OutboundHttp, serverUrl: string, token: string, timeoutMs?: number) {
    this.#http = http;
    this.#base = `${serverUrl.replace(/\/+$/, '')}/api/v4`;
    this.#token = token;
    this.#timeoutMs = timeoutMs;
  }

  async call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown> {
    const res = await this.#http.send({
      method,
      url: `${this.#base}${path}`,
      headers: { authorization: `Bearer ${this.#token}`, 'user-agent': 'Rollcall/1.0', ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: this.#timeoutMs,
    });
    checkStatus(res, `mattermost ${method} ${path.replace(/\/[a-z0-9]{26}(?=\/|$)/g, '/:id').replace(/\/email\/[^/]+/, '/email/:email')}`);
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      return parseJsonBody(res);
    }
  }

  /** The user with this e-mail, or null when the server has none (404). */
  async userIdByEmail(email: string): Promise<string | null> {
    try {
      const user = (await this.call('GET', `/users/email/${encodeURIComponent(email)}`)) as { id?: unknown; delete_at?: unknown };
      return typeof user.id === 'string' && !Number(user.delete_at) ? user.id : null;
    } catch (err) {
      if (err instanceof PlatformError && err.statusCode === 404) return null;
      throw err;
    }
  }

  /** The user with this username (`@otto` without the @), or null when the server has none (404). */
  async userIdByUsername(username: string): Promise<string | null> {
    try {
      const user = (await this.call('GET', `/users/username/${encodeURIComponent(username)}`)) as { id?: unknown };
      return typeof user.id === 'string' ? user.id : null;
    } catch (err) {
      if (err instanceof PlatformError && err.statusCode === 404) return null;
      throw err;
    }
  }

  /** A user's e-mail (shown to the bot when the server's privacy settings allow it, or to a bot with the right role). */
  async emailOf(userId: string): Promise<string | null> {
    const user = (await this.call('GET', `/users/${encodeURIComponent(userId)}`)) as { email?: unknown };
    return typeof user.email === 'string' && user.email.includes('@') ? user.email : null;
  }

  /** The bot account's own user id. */
  async me(): Promise<string> {
    const me = (await this.call('GET', '/users/me')) as { id?: unknown };
    if (typeof me.id !== 'string') throw new PlatformError('mattermost GET /users/me: no id in the answer');
    return me.id;
  }

  /** The direct channel of the bot and a person. */
  async directChannel(userId: string): Promise<string> {
    const channel = (await this.call('POST', '/channels/direct', [await this.me(), userId])) as { id?: unknown };
    return String(channel.id ?? '');
  }

  async listChannels(): Promise<{ id: string; name: string; display_name?: string; type: string; team: string }[]> {
    const teams = ((await this.call('GET', '/users/me/teams')) as { id: string; display_name?: string }[]).slice(0, 20);
    const channels: { id: string; name: string; display_name?: string; type: string; team: string }[] = [];
    for (const team of teams) {
      const list = (await this.call('GET', `/users/me/teams/${encodeURIComponent(team.id)}/channels`)) as { id: string; name: string; display_name?: string; type: string }[];
      for (const c of list) if (c.type === 'O' || c.type === 'P') channels.push({ ...c, team: team.display_name ?? team.id });
    }
    return channels;
  }
}
