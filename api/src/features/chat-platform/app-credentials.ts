import { ValidationFailed } from '../../lib/errors.ts';
import { readJson } from '../../lib/json.ts';
import type { Platform } from '../../db/tables.ts';
import type { PlatformConnectionInput } from './schema.ts';

/**
 * Microsoft Teams, Google Chat and Discord connected as an app people answer through, rather than an incoming webhook:
 * - Teams, a Bot Framework bot: `app_id` (the Microsoft App ID), `app_password` (a client secret of it) and
 *   `tenant_id` (the Microsoft Entra tenant the bot lives in and takes requests from).
 * - Google Chat, a Chat app: `service_account` (the JSON key file of the service account the app calls the Chat
 *   API as) and `project_number` (the Google Cloud project's number: the audience of the tokens Chat sends).
 * - Discord, a bot: `bot_token` (the bot's token), `application_id` (the application it belongs to: interactions
 *   name it) and `public_key` (the application's Ed25519 key its interactions are signed with).
 * Such a connection sends each person their prompt, and can take requests (can_receive).
 */
export const DIRECT_MESSAGE_APPS: ReadonlySet<Platform> = new Set<Platform>(['microsoft_teams', 'google_chat', 'discord']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
}

/** The service account of a Google key file's JSON, or null when it is not one. */
export function serviceAccountOf(json: string): ServiceAccount | null {
  let parsed: unknown;
  try {
    parsed = readJson<unknown>(json, null);
  } catch {
    return null; // not JSON at all
  }
  // Any JSON may come in ("null", a number, an array): only an object can be a key file.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const key = parsed as Record<string, unknown>;
  if (!Object.hasOwn(key, 'client_email') || !Object.hasOwn(key, 'private_key')) return null;
  if (typeof key.client_email !== 'string' || !key.client_email.includes('@') || typeof key.private_key !== 'string' || !key.private_key.includes('PRIVATE KEY')) return null;
  return { client_email: key.client_email, private_key: key.private_key, ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}) };
}

/**
 * The sealed credentials of an app connection, and the workspace it is tied to from the start (the Teams tenant);
 * null when the input is not one (an incoming webhook). Refuses a half-given app with what is missing.
 */
export function appCredentials(input: NonNullable<PlatformConnectionInput>): { credentials: Record<string, string>; team: string | null } | null {
  if (input.kind === 'microsoft_teams' && (input.app_id || input.app_password || input.tenant_id)) {
    const problems: Record<string, string[]> = {};
    if (!input.app_id || !UUID.test(input.app_id)) problems['platform.app_id'] = ['The bot\'s Microsoft App ID (a GUID), from the Azure Bot resource › Configuration.'];
    if (!input.app_password) problems['platform.app_password'] = ['A client secret of the bot\'s app registration (Certificates & secrets).'];
    if (!input.tenant_id || !UUID.test(input.tenant_id)) problems['platform.tenant_id'] = ['The Microsoft Entra tenant ID (a GUID) the bot is registered in.'];
    if (input.webhook_url) problems['platform.webhook_url'] = ['A Teams bot connects with its app ID and secret; leave the incoming-webhook URL out.'];
    if (Object.keys(problems).length) throw new ValidationFailed(problems);
    return { credentials: { app_id: input.app_id!.toLowerCase(), app_password: input.app_password! }, team: input.tenant_id!.toLowerCase() };
  }
  if (input.kind === 'google_chat' && (input.service_account || input.project_number)) {
    const problems: Record<string, string[]> = {};
    if (!input.service_account || !serviceAccountOf(input.service_account)) problems['platform.service_account'] = ['The JSON key file of the Chat app\'s service account (with client_email and private_key).'];
    if (!input.project_number || !/^\d{6,20}$/.test(input.project_number)) problems['platform.project_number'] = ['The Google Cloud project number (digits), from the project\'s dashboard.'];
    if (input.webhook_url) problems['platform.webhook_url'] = ['A Chat app connects with its service account; leave the incoming-webhook URL out.'];
    if (Object.keys(problems).length) throw new ValidationFailed(problems);
    return { credentials: { service_account: input.service_account!, project_number: input.project_number! }, team: null };
  }
  if (input.kind === 'discord' && (input.bot_token || input.application_id || input.public_key)) {
    const problems: Record<string, string[]> = {};
    // A bot token is three base64url parts joined by dots (Bot › Reset Token).
    if (!input.bot_token || !/^[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$/.test(input.bot_token)) problems['platform.bot_token'] = ['The bot\'s token, from the Discord application\'s Bot page (Reset Token).'];
    if (!input.application_id || !/^\d{15,21}$/.test(input.application_id)) problems['platform.application_id'] = ['The Application ID (digits), from the Discord application\'s General Information page.'];
    if (!input.public_key || !/^[0-9a-fA-F]{64}$/.test(input.public_key)) problems['platform.public_key'] = ['The Public Key (64 hexadecimal digits), from the Discord application\'s General Information page.'];
    if (input.webhook_url) problems['platform.webhook_url'] = ['A Discord bot connects with its token and application; leave the incoming-webhook URL out.'];
    if (Object.keys(problems).length) throw new ValidationFailed(problems);
    // The application is the "workspace": an interaction naming another application is refused (403).
    return { credentials: { bot_token: input.bot_token!, app_id: input.application_id!, public_key: input.public_key!.toLowerCase() }, team: input.application_id! };
  }
  return null;
}
