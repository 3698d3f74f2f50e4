import type { Config } from '../../lib/config.ts';
import type { Executor } from '../../db/connection.ts';
import { organizationConfig } from '../../db/organization-config.ts';
import type { OrganizationConfig } from '../../db/organization-config.ts';
import { ValidationFailed, badRequest } from '../../lib/errors.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { refuseUrl } from '../../outbound/address-policy.ts';
import type { Resolver } from '../../outbound/address-policy.ts';
import type { PlatformConnectionInput } from './schema.ts';
import type { Platform } from '../../db/tables.ts';

export interface ChatConnection {
  platform: Platform;
  botToken: string | null;
  webhookUrl: string | null;
  channelName: string | null;
}

/** The organization's chat platform, kept under its settings version (db/organization-config.ts): every kudos asks. */
export async function platformName(db: Executor, organizationUuid: string, config?: OrganizationConfig): Promise<Platform | null> {
  return (config ?? (await organizationConfig(db, organizationUuid))).part('chat:platform', async () => {
    const row = await db('chat_connections').where({ organization_uuid: organizationUuid }).first('platform');
    return row?.platform ?? null;
  });
}

export async function getConnection(db: Executor, box: Pick<SecretBox, 'decrypt'>, organizationUuid: string): Promise<ChatConnection | null> {
  const row = await db('chat_connections').where({ organization_uuid: organizationUuid }).first();
  if (!row) return null;
  const credentials = readJson<{ bot_token?: string; webhook_url?: string }>(box.decrypt(row.credentials_encrypted, 'the chat platform credentials'), {});
  return { platform: row.platform, botToken: credentials.bot_token ?? null, webhookUrl: credentials.webhook_url ?? null, channelName: row.channel_name };
}

const notConnected = () =>
  badRequest('platform_not_connected', 'No chat platform is connected. Connect Slack, Microsoft Teams, Discord or Google Chat in PATCH /v1/organization/ (platform).');

export async function requireConnection(db: Executor, box: SecretBox, organizationUuid: string): Promise<ChatConnection> {
  const connection = await getConnection(db, box, organizationUuid);
  if (!connection) throw notConnected();
  return connection;
}

/** The connected platform, without opening its credentials: a send only queues, and its sender opens them. */
export async function requirePlatform(db: Executor, organizationUuid: string): Promise<Platform> {
  const platform = await platformName(db, organizationUuid);
  if (!platform) throw notConnected();
  return platform;
}

function baseFor(config: Config, platform: Platform): string | null {
  if (platform === 'discord') return config.chat.discordWebhookBaseUrl;
  if (platform === 'google_chat') return config.chat.googleChatWebhookBaseUrl;
  if (platform === 'microsoft_teams') return config.chat.teamsWebhookBaseUrl;
  return null;
}

/** Connects (or with null disconnects) the organization's chat platform. Secrets are checked and sealed. */
export async function connectPlatform(
  db: Executor,
  box: SecretBox,
  config: Config,
  resolve: Resolver | undefined,
  organizationUuid: string,
  input: PlatformConnectionInput | null,
  now: Date,
): Promise<void> {
  if (input === null) {
    await db('chat_connections').where({ organization_uuid: organizationUuid }).delete();
    return;
  }
  if (!input) return;
  let credentials: Record<string, string>;
  if (input.kind === 'slack') {
    if (input.webhook_url) throw new ValidationFailed({ 'platform.webhook_url': ['Slack connects with a bot token, not a webhook URL.'] });
    if (!input.bot_token || !/^xox[bpa]-[A-Za-z0-9-]+$/.test(input.bot_token)) {
      throw new ValidationFailed({ 'platform.bot_token': ['A Slack bot token (xoxb-…) is required.'] });
    }
    credentials = { bot_token: input.bot_token };
  } else {
    if (input.bot_token) throw new ValidationFailed({ 'platform.bot_token': ['This platform connects with an incoming-webhook URL, not a bot token.'] });
    if (!input.webhook_url) throw new ValidationFailed({ 'platform.webhook_url': ['An incoming-webhook URL is required.'] });
    const base = baseFor(config, input.kind);
    if (base && !input.webhook_url.startsWith(base)) {
      throw new ValidationFailed({ 'platform.webhook_url': [`Must be an incoming-webhook URL starting with ${base}`] });
    }
    const refusal = await refuseUrl(input.webhook_url, { allowPrivate: config.allowPrivateWebhooks, resolve });
    if (refusal) throw new ValidationFailed({ 'platform.webhook_url': [refusal] });
    credentials = { webhook_url: input.webhook_url };
  }
  const row = {
    organization_uuid: organizationUuid,
    platform: input.kind,
    credentials_encrypted: box.encrypt(writeJson(credentials)),
    channel_name: input.channel_name ?? null,
    updated_at: now.toISOString(),
  };
  await db('chat_connections')
    .insert({ ...row, created_at: now.toISOString() })
    .onConflict('organization_uuid')
    .merge(row);
}
