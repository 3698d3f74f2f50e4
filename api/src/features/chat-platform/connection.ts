import type { Config } from '../../lib/config.ts';
import type { Executor } from '../../db/connection.ts';
import { organizationConfig } from '../../db/organization-config.ts';
import type { OrganizationConfig } from '../../db/organization-config.ts';
import { ValidationFailed, badRequest } from '../../lib/errors.ts';
import { readJson, writeJson } from '../../lib/json.ts';
import { randomBase62 } from '../../lib/secrets.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import { refuseUrl } from '../../outbound/address-policy.ts';
import type { Resolver } from '../../outbound/address-policy.ts';
import type { PlatformConnectionInput } from './schema.ts';
import { DIRECT_MESSAGE_APPS, appCredentials } from './app-credentials.ts';
import { bool } from '../../lib/json.ts';
import type { ChatConnectionRow, Platform } from '../../db/tables.ts';

export interface ChatConnection {
  organizationUuid: string;
  platform: Platform;
  botToken: string | null;
  webhookUrl: string | null;
  channelName: string | null;
  /** Verifies the platform's requests (Slack's signing secret); null: the connection sends but cannot receive. */
  signingSecret: string | null;
  /** The platform's workspace, once learned (Slack team id), or given (Teams tenant id). */
  externalTeamId: string | null;
  /** Mattermost: the server's address (its API is `{serverUrl}/api/v4`). */
  serverUrl: string | null;
  /** Mattermost: the /rollcall slash command's token, which Mattermost sends with each command. */
  commandToken: string | null;
  /** A secret of ours (Mattermost): signs what a button or dialog hands back, so a request proves it came from a message of ours. */
  requestSecret: string | null;
  /** Teams bot: its Microsoft App ID and client secret (app-credentials.ts); Discord bot: its application id; else null. */
  appId: string | null;
  appPassword: string | null;
  /** Teams bot: the Bot Connector service its activities come from, and the team whose roster finds people, once learned. */
  serviceUrl: string | null;
  rosterId: string | null;
  /** Google Chat app: its service account's JSON key file and the project number its tokens are for; else null. */
  serviceAccount: string | null;
  projectNumber: string | null;
  /** Discord bot: the application's Ed25519 public key (hex) its interactions are signed with; else null. */
  publicKey: string | null;
}

/**
 * The platforms that reach each person (a direct message): prompts, reminders and personal notices go to them
 * one by one. The others post to the one channel they were connected with. A platform module that sends direct
 * messages is named here too (features/chat/platforms.test.ts checks both agree).
 */
export const DIRECT_MESSAGE_PLATFORMS: ReadonlySet<Platform> = new Set<Platform>(['slack', 'mattermost']);

interface Credentials {
  bot_token?: string;
  webhook_url?: string;
  signing_secret?: string;
  server_url?: string;
  command_token?: string;
  request_secret?: string;
  app_id?: string;
  app_password?: string;
  service_account?: string;
  project_number?: string;
  public_key?: string;
}

function connectionOf(row: ChatConnectionRow, box: Pick<SecretBox, 'decrypt'>): ChatConnection {
  const credentials = readJson<Credentials>(box.decrypt(row.credentials_encrypted, 'the chat platform credentials'), {});
  return {
    organizationUuid: row.organization_uuid,
    platform: row.platform,
    botToken: credentials.bot_token ?? null,
    webhookUrl: credentials.webhook_url ?? null,
    channelName: row.channel_name,
    signingSecret: credentials.signing_secret ?? null,
    externalTeamId: row.external_team_id ?? null,
    serverUrl: credentials.server_url ?? null,
    commandToken: credentials.command_token ?? null,
    requestSecret: credentials.request_secret ?? null,
    appId: credentials.app_id ?? null,
    appPassword: credentials.app_password ?? null,
    serviceUrl: row.service_url ?? null,
    rosterId: row.roster_id ?? null,
    serviceAccount: credentials.service_account ?? null,
    projectNumber: credentials.project_number ?? null,
    publicKey: credentials.public_key ?? null,
  };
}

/**
 * Whether the organization's platform reaches each person: a direct-message platform, or Teams, Google Chat and
 * Discord connected as an app (not an incoming webhook). Kept under the settings version like the platform's name.
 */
export async function sendsDirectMessages(db: Executor, organizationUuid: string, platform: Platform, config?: OrganizationConfig): Promise<boolean> {
  if (DIRECT_MESSAGE_PLATFORMS.has(platform)) return true;
  if (!DIRECT_MESSAGE_APPS.has(platform)) return false;
  return (config ?? (await organizationConfig(db, organizationUuid))).part('chat:direct', async () => {
    const row = await db('chat_connections').where({ organization_uuid: organizationUuid }).first('can_receive');
    return bool(row?.can_receive);
  });
}

/** Records where a Teams bot's activities come from (the Bot Connector service) and the team it can look people up in. */
export async function recordServiceUrl(db: Executor, organizationUuid: string, serviceUrl: string, rosterId: string | null): Promise<void> {
  await db('chat_connections').where({ organization_uuid: organizationUuid }).update({ service_url: serviceUrl, ...(rosterId ? { roster_id: rosterId } : {}) });
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
  return row ? connectionOf(row, box) : null;
}

/**
 * The connections a request from `platform` may come from, those that can receive: of the workspace the request
 * names or not yet tied to one (`ownTeam`), else the others (`otherTeams`: a signature one of them made is a
 * request from another workspace than its own). At most 50 each; the request is verified against each one's
 * secret until one matches.
 */
export async function receivingConnections(db: Executor, box: Pick<SecretBox, 'decrypt'>, platform: Platform, teamId: string | null, which: 'ownTeam' | 'otherTeams'): Promise<ChatConnection[]> {
  const query = db('chat_connections').where({ platform, can_receive: true });
  if (teamId && which === 'ownTeam') query.andWhere((q) => q.where('external_team_id', teamId).orWhereNull('external_team_id'));
  if (which === 'otherTeams') query.whereNotNull('external_team_id').modify((q) => (teamId ? q.whereNot('external_team_id', teamId) : q));
  const rows: ChatConnectionRow[] = await query.orderBy('organization_uuid').limit(50);
  // A connection whose secrets this server's key cannot open verifies nothing: it is skipped, not an error for all.
  return rows.flatMap((row) => {
    try {
      return [connectionOf(row, box)];
    } catch {
      return [];
    }
  });
}

/** Ties a connection to its platform workspace, once learned (the first request's bot token said which). */
export async function recordTeam(db: Executor, organizationUuid: string, teamId: string): Promise<void> {
  await db('chat_connections').where({ organization_uuid: organizationUuid }).whereNull('external_team_id').update({ external_team_id: teamId });
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

/**
 * Mattermost: the bot account's access token, the server's address (https, and not a private address unless
 * ALLOW_PRIVATE_WEBHOOKS: a server on the same network as Rollcall needs it), and the /rollcall slash command's
 * token (without it the connection sends but takes no request). A secret of ours signs the buttons and dialogs.
 */
async function mattermostCredentials(
  config: Config, resolve: Resolver | undefined, input: NonNullable<PlatformConnectionInput>, requestSecret: string | null,
): Promise<Record<string, string>> {
  if (input.webhook_url) throw new ValidationFailed({ 'platform.webhook_url': ['Mattermost connects with a bot account token and the server URL, not a webhook URL.'] });
  if (!input.bot_token || !/^[A-Za-z0-9]{20,64}$/.test(input.bot_token)) {
    throw new ValidationFailed({ 'platform.bot_token': ["The bot account's access token (Integrations › Bot Accounts), 26 letters and digits."] });
  }
  const server = (input.server_url ?? '').replace(/\/+$/, '');
  if (!server) throw new ValidationFailed({ 'platform.server_url': ['The Mattermost server URL is required (https://chat.example.com).'] });
  const refusal = await refuseUrl(server, { allowPrivate: config.allowPrivateWebhooks, resolve });
  if (refusal) throw new ValidationFailed({ 'platform.server_url': [refusal] });
  if (input.command_token !== undefined && !/^[A-Za-z0-9]{20,64}$/.test(input.command_token)) {
    throw new ValidationFailed({ 'platform.command_token': ["The /rollcall slash command's token (Integrations › Slash Commands), 26 letters and digits."] });
  }
  return { bot_token: input.bot_token, server_url: server, request_secret: requestSecret ?? randomBase62(43), ...(input.command_token ? { command_token: input.command_token } : {}) };
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
  const app = appCredentials(input);
  if (app) {
    credentials = app.credentials;
  } else if (input.kind === 'slack') {
    if (input.webhook_url) throw new ValidationFailed({ 'platform.webhook_url': ['Slack connects with a bot token, not a webhook URL.'] });
    if (!input.bot_token || !/^xox[bpa]-[A-Za-z0-9-]+$/.test(input.bot_token)) {
      throw new ValidationFailed({ 'platform.bot_token': ['A Slack bot token (xoxb-…) is required.'] });
    }
    if (input.signing_secret !== undefined && !/^[A-Za-z0-9]{16,128}$/.test(input.signing_secret)) {
      throw new ValidationFailed({ 'platform.signing_secret': ["A Slack signing secret: the letters and digits under Basic Information › App Credentials › Signing Secret."] });
    }
    credentials = { bot_token: input.bot_token, ...(input.signing_secret ? { signing_secret: input.signing_secret } : {}) };
  } else if (input.kind === 'mattermost') {
    // A new token keeps the secret the day's buttons were signed with: they still work after a reconnection.
    const before = await getConnection(db, box, organizationUuid).catch(() => null);
    credentials = await mattermostCredentials(config, resolve, input, before?.platform === 'mattermost' ? before.requestSecret : null);
  } else {
    if (input.bot_token) throw new ValidationFailed({ 'platform.bot_token': ['This platform connects with an incoming-webhook URL, not a bot token.'] });
    if (input.signing_secret) throw new ValidationFailed({ 'platform.signing_secret': ['This platform connects with an incoming-webhook URL, not a signing secret.'] });
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
    can_receive: Boolean(credentials.signing_secret || credentials.command_token) || app !== null,
    // A new token may be another workspace's: learned again from the next request (a Teams bot names its tenant).
    external_team_id: app?.team ?? null,
    service_url: null,
    roster_id: null,
    updated_at: now.toISOString(),
  };
  await db('chat_connections')
    .insert({ ...row, created_at: now.toISOString() })
    .onConflict('organization_uuid')
    .merge(row);
}
