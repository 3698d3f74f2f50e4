import type { Config } from '../../../lib/config.ts';
import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { retryAfterMs } from '../../../outbound/outbound-http.ts';
import { accessToken } from '../../chat-platform/access-tokens.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import { PlatformError, checkStatus, parseJsonBody } from '../../chat-platform/platform-http.ts';

/**
 * The Bot Connector API of a Teams bot (proactive messages, card updates, the team's roster), at the `serviceUrl`
 * Teams' activities name, with a token from the Microsoft identity platform (client credentials of the bot's app
 * registration, in its tenant: TEAMS_LOGIN_URL). Our own small client rather than `botbuilder`: every call goes
 * through OutboundHttp (the outbound address policy, one pool, our timeouts) and the delivery outbox decides about
 * retries; the SDK would bring its own HTTP stack, retry policy and a turn-context model the outbox does not need.
 */
export class TeamsConnector {
  readonly #http: OutboundHttp;
  readonly #config: Config;
  readonly #connection: ChatConnection;
  readonly #timeoutMs: number | undefined;
  constructor(http: OutboundHttp, config: Config, connection: ChatConnection, timeoutMs?: number) {
    this.#http = http;
    this.#config = config;
    this.#connection = connection;
    this.#timeoutMs = timeoutMs;
  }

  /** Where the connector is: learned from the first verified activity. */
  get serviceUrl(): string {
    const url = this.#connection.serviceUrl;
    if (!url) throw new PlatformError('microsoft teams: no activity has come from Teams yet, so the Bot Connector service is unknown: install the app in a team', { permanent: true });
    return url.replace(/\/+$/, '');
  }

  #token(): Promise<string> {
    const c = this.#connection;
    return accessToken(this.#http, `${this.#config.chat.teamsLoginUrl}/${encodeURIComponent(c.externalTeamId ?? 'botframework.com')}/oauth2/v2.0/token`, {
      grant_type: 'client_credentials', client_id: c.appId ?? '', client_secret: c.appPassword ?? '', scope: 'https://api.botframework.com/.default',
    }, new Date(), this.#timeoutMs);
  }

  async call(method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await this.#http.send({
      method, url: `${this.serviceUrl}${path}`,
      headers: { authorization: `Bearer ${await this.#token()}`, ...(body ? { 'content-type': 'application/json; charset=utf-8' } : {}) },
      body: body ? JSON.stringify(body) : undefined, timeoutMs: this.#timeoutMs,
    });
    const what = `microsoft teams ${method} ${path.split('?')[0]}`;
    if (res.status === 429) throw new PlatformError(`${what}: rate limited`, { statusCode: 429, retryAfterMs: retryAfterMs(res.headers['retry-after'], new Date()) });
    if (res.status === 404 && method === 'GET') return { status: 404, json: {} };
    checkStatus(res, what);
    return { status: res.status, json: parseJsonBody(res) };
  }

  /** The personal conversation of the bot with a person (their Microsoft Entra object id): created, or the existing one. */
  async personalConversation(userId: string): Promise<string> {
    const tenant = this.#connection.externalTeamId;
    const { json } = await this.call('POST', '/v3/conversations', {
      isGroup: false, bot: { id: `28:${this.#connection.appId}` }, members: [{ id: userId }], tenantId: tenant, channelData: { tenant: { id: tenant } },
    });
    if (typeof json.id !== 'string' || json.id === '') throw new PlatformError('microsoft teams: the conversation was not created (no id)');
    return json.id;
  }

  /** Posts an activity to a conversation (a reply when `replyTo`); returns its id. */
  async send(conversationId: string, activity: Record<string, unknown>, replyTo?: string): Promise<string> {
    const path = `/v3/conversations/${encodeURIComponent(conversationId)}/activities${replyTo ? `/${encodeURIComponent(replyTo)}` : ''}`;
    const { json } = await this.call('POST', path, { ...activity, ...(replyTo ? { replyToId: replyTo } : {}) });
    return String(json.id ?? '');
  }

  async update(conversationId: string, activityId: string, activity: Record<string, unknown>): Promise<void> {
    await this.call('PUT', `/v3/conversations/${encodeURIComponent(conversationId)}/activities/${encodeURIComponent(activityId)}`, { ...activity, id: activityId });
  }

  /** A member of a conversation or team, by their id, Microsoft Entra object id or user principal name (e-mail); null when not a member. */
  async member(conversationId: string, userId: string): Promise<{ id: string; aadObjectId: string | null; email: string | null } | null> {
    const { status, json } = await this.call('GET', `/v3/conversations/${encodeURIComponent(conversationId)}/members/${encodeURIComponent(userId)}`);
    if (status === 404 || typeof json.id !== 'string') return null;
    const email = [json.email, json.userPrincipalName].find((v) => typeof v === 'string' && v.includes('@')) as string | undefined;
    return { id: json.id, aadObjectId: typeof json.aadObjectId === 'string' ? json.aadObjectId : null, email: email ?? null };
  }

  /** The channels of the team the bot was installed in. */
  async channels(teamId: string): Promise<{ id: string; name: string }[]> {
    const { json } = await this.call('GET', `/v3/teams/${encodeURIComponent(teamId)}/conversations`);
    const list = Array.isArray(json.conversations) ? json.conversations : [];
    return list.filter((c: { id?: unknown }) => typeof c?.id === 'string').map((c: { id: string; name?: unknown }) => ({ id: c.id, name: typeof c.name === 'string' && c.name ? c.name : 'General' }));
  }
}
