import type { Config } from '../../../lib/config.ts';
import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { retryAfterMs } from '../../../outbound/outbound-http.ts';
import { accessToken } from '../../chat-platform/access-tokens.ts';
import { serviceAccountOf } from '../../chat-platform/app-credentials.ts';
import type { ChatConnection } from '../../chat-platform/connection.ts';
import { signJwt } from '../../chat-platform/jwt.ts';
import { PlatformError, checkStatus, parseJsonBody } from '../../chat-platform/platform-http.ts';

const CHAT_BOT_SCOPE = 'https://www.googleapis.com/auth/chat.bot';

/**
 * The Google Chat API (GOOGLE_CHAT_API_URL) as the app's service account: a token from Google's OAuth endpoint
 * (GOOGLE_TOKEN_URL) for an assertion the service account's key signs (RS256), kept until it expires. Our own
 * small client rather than googleapis: every call goes through OutboundHttp and the delivery outbox retries.
 */
export class GoogleChatApi {
  readonly #http: OutboundHttp;
  readonly #config: Config;
  readonly #connection: ChatConnection;
  constructor(http: OutboundHttp, config: Config, connection: ChatConnection) {
    this.#http = http;
    this.#config = config;
    this.#connection = connection;
  }

  #token(): Promise<string> {
    const account = serviceAccountOf(this.#connection.serviceAccount ?? '');
    if (!account) throw new PlatformError('google chat: the connection has no service account', { permanent: true });
    const now = new Date();
    const iat = Math.floor(now.getTime() / 1000);
    // The assertion changes every second; the token is kept by who asks (the account), not by the assertion.
    const assertion = () => signJwt({ iss: account.client_email, scope: CHAT_BOT_SCOPE, aud: this.#config.chat.googleTokenUrl, iat, exp: iat + 3600 }, account.private_key, account.private_key_id);
    return accessToken(this.#http, this.#config.chat.googleTokenUrl, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' }, now, undefined, { account: account.client_email, build: assertion });
  }

  async call(method: 'GET' | 'POST' | 'PATCH', path: string, body?: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await this.#http.send({
      method, url: `${this.#config.chat.googleChatApiUrl}/v1/${path}`,
      headers: { authorization: `Bearer ${await this.#token()}`, ...(body ? { 'content-type': 'application/json; charset=utf-8' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const what = `google chat ${method} ${path.split('?')[0]}`;
    if (res.status === 429) throw new PlatformError(`${what}: rate limited`, { statusCode: 429, retryAfterMs: retryAfterMs(res.headers['retry-after'], new Date()) });
    if (res.status === 404 && method === 'GET') return { status: 404, json: {} };
    checkStatus(res, what);
    return { status: res.status, json: parseJsonBody(res) };
  }

  /** The direct-message space of the app with a person, by e-mail (`spaces:findDirectMessage`); null when none. */
  async directMessageSpace(email: string): Promise<string | null> {
    const { status, json } = await this.call('GET', `spaces:findDirectMessage?name=${encodeURIComponent(`users/${email}`)}`);
    return status === 404 || typeof json.name !== 'string' ? null : json.name;
  }

  /** Posts a message to a space (a reply in the thread `threadKey` when given); returns its name. */
  async post(space: string, body: Record<string, unknown>, threadKey?: string): Promise<string> {
    const query = threadKey ? `?threadKey=${encodeURIComponent(threadKey)}&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD` : '';
    const { json } = await this.call('POST', `${space}/messages${query}`, body);
    return String(json.name ?? '');
  }

  async update(message: string, body: Record<string, unknown>): Promise<void> {
    await this.call('PATCH', `${message}?updateMask=text,cardsV2`, body);
  }

  /** The spaces (not direct messages) the app is a member of. */
  async spaces(): Promise<{ name: string; displayName: string }[]> {
    const { json } = await this.call('GET', 'spaces?pageSize=200&filter=' + encodeURIComponent('spaceType = "SPACE"'));
    const list = Array.isArray(json.spaces) ? json.spaces : [];
    return list.filter((s: { name?: unknown }) => typeof s?.name === 'string').map((s: { name: string; displayName?: unknown }) => ({ name: s.name, displayName: typeof s.displayName === 'string' ? s.displayName : s.name }));
  }
}
