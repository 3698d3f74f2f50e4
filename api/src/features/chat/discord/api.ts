import type { OutboundHttp } from '../../../outbound/outbound-http.ts';
import { PlatformError, checkStatus, parseJsonBody } from '../../chat-platform/platform-http.ts';

/**
 * Discord's REST API (DISCORD_API_URL, default `https://discord.com/api/v10`) as the bot (`Authorization: Bot …`).
 * Our own small client, like Slack's and Mattermost's: every call goes through OutboundHttp (the outbound address
 * policy, one pool, our timeouts) and the delivery outbox decides about retries (a 429's Retry-After included);
 * discord.js would bring a gateway client, its own REST queue and HTTP stack for the five calls used here.
 */
export class DiscordApi {
  readonly #http: OutboundHttp;
  readonly #base: string;
  readonly #token: string;
  constructor(http: OutboundHttp, baseUrl: string, token: string) {
    this.#http = http;
    this.#base = baseUrl.replace(/\/+$/, '');
    this.#token = token;
  }

  async call(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<unknown> {
    const res = await this.#http.send({
      method,
      url: `${this.#base}${path}`,
      headers: { authorization: `Bot ${this.#token}`, 'user-agent': 'DiscordBot (rollcall, 1.8)', ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    checkStatus(res, `discord ${method} ${path.replace(/\/\d{15,21}(?=\/|$)/g, '/:id')}`);
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      return parseJsonBody(res);
    }
  }

  /** The direct-message channel of the bot and a person (Discord gives the same one again). */
  async dmChannel(userId: string): Promise<string> {
    const channel = (await this.call('POST', '/users/@me/channels', { recipient_id: userId })) as { id?: unknown };
    if (typeof channel.id !== 'string') throw new PlatformError('discord POST /users/@me/channels: no id in the answer');
    return channel.id;
  }

  /** Posts a message; answers its id. */
  async post(channelId: string, message: Record<string, unknown>): Promise<string> {
    const posted = (await this.call('POST', `/channels/${encodeURIComponent(channelId)}/messages`, message)) as { id?: unknown };
    return String(posted.id ?? '');
  }

  async edit(channelId: string, messageId: string, message: Record<string, unknown>): Promise<void> {
    await this.call('PATCH', `/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(messageId)}`, message);
  }

  /** The text and announcement channels of the servers (guilds) the bot is in, at most 20 servers. */
  async textChannels(): Promise<{ id: string; name: string; guild: string }[]> {
    const guilds = ((await this.call('GET', '/users/@me/guilds')) as { id: string; name?: string }[]).slice(0, 20);
    const channels: { id: string; name: string; guild: string }[] = [];
    for (const guild of guilds) {
      const list = (await this.call('GET', `/guilds/${encodeURIComponent(guild.id)}/channels`)) as { id: string; name: string; type: number; position?: number }[];
      const text = list.filter((c) => c.type === 0 || c.type === 5).sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
      for (const c of text) channels.push({ id: c.id, name: c.name, guild: guild.name ?? guild.id });
    }
    return channels;
  }
}
