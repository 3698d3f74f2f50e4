import path from 'node:path';
import { API_KEY_PATTERN } from './secrets.ts';
import { parseTrustProxy } from './trust-proxy.ts';
import type { TrustProxy } from './trust-proxy.ts';

/**
 * Every setting comes from the environment, parsed once at start. A bad value throws a ConfigError naming
 * the variable, so `rollcall serve` stops with a clear message instead of misbehaving later.
 */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }
}

/**
 * The environment is well formed but the server cannot start with it (the port is taken, the database refuses
 * the connection, another process owns the SQLite file): one line naming the variable and what to do.
 */
export class StartupError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string, options?: { cause?: unknown }) {
    super(`${variable}: ${message}`, options);
    this.name = 'StartupError';
    this.variable = variable;
  }
}

/**
 * The directory holding the repository's package.json (`/app` in the image). Relative paths in the configuration
 * (`DATA_DIR`, `SITE_DIR`, a `sqlite:` path) are relative to it, whatever directory a command starts in: `npm start`
 * runs in `api/`, `npx rollcall` wherever it is typed, and both must find the same database.
 */
export const INSTALL_DIR = path.resolve(import.meta.dirname, '../../..');
const installPath = (value: string) => path.resolve(INSTALL_DIR, value);

/** A `sqlite:` or `file:` URL with its path made absolute (relative to INSTALL_DIR); other URLs unchanged. */
function absoluteDatabaseUrl(url: string): string {
  const match = /^(sqlite|file):(?:\/\/)?(.*)$/.exec(url);
  if (!match || match[2] === ':memory:') return url;
  return `sqlite:${installPath(match[2])}`;
}

/** The database URL as it may be shown: a PostgreSQL password is masked. */
export function displayDatabaseUrl(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) return databaseUrl;
  try {
    const parsed = new URL(databaseUrl);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

export const RATE_LIMIT_SCOPES = [
  'reads',
  'writes',
  'messaging',
  'email',
  'invitations',
  'workflow_triggers',
  'agent',
  'authentication',
] as const;
export type RateLimitScope = (typeof RATE_LIMIT_SCOPES)[number];

/** Hourly budgets per credential (CONTRACT §5); enterprise organizations get `enterpriseMultiplier` times these. */
export const DEFAULT_HOURLY_BUDGETS: Record<RateLimitScope, number> = {
  reads: 5000,
  writes: 1000,
  messaging: 300,
  email: 200,
  invitations: 100,
  workflow_triggers: 200,
  agent: 2000,
  authentication: 20,
};

/** Which background work a process runs (ROLE): see Config.role. */
export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];

export interface Config {
  env: 'production' | 'development' | 'test';
  /**
   * ROLE: `api` serves HTTP only; `worker` also runs the delivery workers, the inbound SMTP listener and the
   * scheduled jobs; `all` (the default) is both. Every role serves the whole HTTP API and its health endpoints.
   */
  role: Role;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  /** PostgreSQL connections (SQLite has one): pool size, statement timeout (0: none), and how long to wait for a connection. */
  database: DatabaseOptions;
  publicUrl: string | null;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For, -Proto and -Host are believed (lib/trust-proxy.ts); null: none. */
  trustProxy: TrustProxy;
  logLevel: string;
  requireHttps: boolean;
  smtpUrl: string | null;
  mailFrom: string;
  inboundEmailDomain: string;
  inboundSmtpPort: number | null;
  inboundEmailSecret: string | null;
  allowPrivateWebhooks: boolean;
  siteDir: string | null;
  /** The built web app served at /app/ (`APP_DIR`, default `app/dist` of the installation; `npm start` builds it first). */
  appDir: string;
  llm: { baseUrl: string | null; apiKey: string | null; model: string; timeoutMs: number };
  /** Where people get the `rollcall` command (the update manifest's download_url); null when not set. */
  cliDownloadUrl: string | null;
  agentSelfRegistration: boolean;
  /** Agent e-mail per agent and hour, by plan (AGENT_EMAIL_HOURLY_LIMIT, AGENT_EMAIL_HOURLY_LIMIT_<PLAN>; CONTRACT §5). */
  agentEmailHourlyLimit: Record<'free' | 'basic' | 'pro' | 'enterprise', number>;
  bootstrapAdminEmail: string;
  bootstrapApiKey: string | null;
  authCacheSeconds: number;
  hourlyBudgets: Record<RateLimitScope, number>;
  enterpriseMultiplier: number;
  /** Plan minute ceilings per actor (PLAN_RATE_LIMIT_READS, _WRITES, _BULK, _DELTA; the spec's Limits table). */
  planMinuteLimits: { reads: number; writes: number; bulk: number; delta: number };
  /** How long a task creation waits for its board's KEY-n counter before 409 identifier_allocation_failed (PLAN_LOCK_TIMEOUT_MS). */
  planLockTimeoutMs: number;
  shutdownTimeoutMs: number;
  /** Outbound delivery (CONTRACT §10): worker pool size, retry schedule, polling, webhook timeout. */
  delivery: {
    concurrency: number;
    /** Delays before each retry, in milliseconds (DELIVERY_RETRY_SCHEDULE, e.g. "5s,5m,30m,2h,5h,10h"). */
    retryScheduleMs: number[];
    pollMs: number;
    timeoutMs: number;
  };
  /** AES-256-GCM key for stored secrets (ENCRYPTION_KEY: 64 hex or base64 of 32 bytes); else DATA_DIR/encryption.key. */
  encryptionKey: Buffer | null;
  /** Chat platform endpoints; configurable so tests run local stand-ins. */
  chat: {
    slackApiUrl: string;
    discordWebhookBaseUrl: string;
    /** Discord's REST API (a bot's direct messages, channel posts): DISCORD_API_URL. */
    discordApiUrl: string;
    googleChatWebhookBaseUrl: string;
    /** Teams incoming-webhook URLs live on tenant hosts; null accepts any HTTPS URL that passes the address checks. */
    teamsWebhookBaseUrl: string | null;
    /** Teams bot: the Bot Framework's OpenID metadata (→ its signing keys) and the Microsoft identity platform's token host. */
    teamsOpenIdMetadataUrl: string;
    teamsLoginUrl: string;
    /** Google Chat app: the Chat API, the keys of the tokens Google Chat sends, and Google's OAuth token endpoint. */
    googleChatApiUrl: string;
    googleChatKeysUrl: string;
    googleTokenUrl: string;
  };
  /**
   * Where Plan attachments are stored: files under DATA_DIR/attachments (`disk`, the default), or an S3-compatible
   * object store (ATTACHMENT_STORAGE=s3 with S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).
   */
  attachments: { storage: 'disk' } | { storage: 's3'; s3: S3Settings };
}

export interface S3Settings {
  bucket: string;
  /** null: AWS's own endpoint for the region. */
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Bucket in the path (most S3-compatible servers) rather than in the host name. */
  forcePathStyle: boolean;
}

export interface DatabaseOptions {
  /** DATABASE_POOL_SIZE: connections this process may open to PostgreSQL. */
  poolSize: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL cancels a statement running longer (0: no limit). */
  statementTimeoutMs: number;
  /** DATABASE_CONNECT_TIMEOUT_MS: how long a query waits to connect or for a free connection before it fails (the request answers 503). */
  connectTimeoutMs: number;
}

export const DEFAULT_DATABASE_OPTIONS: DatabaseOptions = { poolSize: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 5_000 };

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const value = text(env, name);
  if (value === null) return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(name, `expected true or false, got "${value}"`);
}

function integer(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const value = text(env, name);
  if (value === null) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const value = text(env, name);
  if (value === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `expected a URL, got "${value}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL, got "${parsed.protocol}"`);
  }
  return value;
}

function trustProxy(env: Env): TrustProxy {
  try {
    return parseTrustProxy(text(env, 'TRUST_PROXY'));
  } catch (err) {
    throw new ConfigError('TRUST_PROXY', (err as Error).message);
  }
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "5s,5m,30m,2h" → milliseconds; a bare number is seconds. */
function durationList(env: Env, name: string, fallback: number[]): number[] {
  const value = text(env, name);
  if (value === null) return fallback;
  return value.split(',').map((part) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(part.trim());
    if (!match) throw new ConfigError(name, `expected durations like "5s,5m,2h", got "${value}"`);
    return Math.round(Number(match[1]) * DURATION_UNITS[match[2] ?? 's']);
  });
}

function encryptionKey(env: Env, name: string): Buffer | null {
  const value = text(env, name);
  if (value === null) return null;
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new ConfigError(name, 'expected 32 bytes as 64 hex characters or base64');
  return key;
}

function agentEmailLimits(env: Env): Config['agentEmailHourlyLimit'] {
  const base = integer(env, 'AGENT_EMAIL_HOURLY_LIMIT', 50, 1);
  const plan = (name: string) => integer(env, `AGENT_EMAIL_HOURLY_LIMIT_${name.toUpperCase()}`, base, 1);
  return { free: plan('free'), basic: plan('basic'), pro: plan('pro'), enterprise: plan('enterprise') };
}

function attachmentStorage(env: Env): Config['attachments'] {
  const storage = text(env, 'ATTACHMENT_STORAGE') ?? 'disk';
  if (storage === 'disk') return { storage };
  if (storage !== 's3') throw new ConfigError('ATTACHMENT_STORAGE', `expected disk or s3, got "${storage}"`);
  const bucket = text(env, 'S3_BUCKET');
  if (bucket === null) throw new ConfigError('S3_BUCKET', 'required with ATTACHMENT_STORAGE=s3');
  const endpoint = url(env, 'S3_ENDPOINT', ['https:', 'http:']);
  return {
    storage,
    s3: {
      bucket,
      endpoint,
      region: text(env, 'S3_REGION') ?? 'us-east-1',
      accessKeyId: text(env, 'S3_ACCESS_KEY_ID'),
      secretAccessKey: text(env, 'S3_SECRET_ACCESS_KEY'),
      forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', endpoint !== null),
    },
  };
}

export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000];

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = text(env, 'NODE_ENV');
  const mode = nodeEnv === 'production' ? 'production' : nodeEnv === 'test' ? 'test' : 'development';
  const dataDir = installPath(text(env, 'DATA_DIR') ?? 'data');
  const configuredDatabase = url(env, 'DATABASE_URL', ['sqlite:', 'file:', 'postgres:', 'postgresql:']);
  const databaseUrl = configuredDatabase ? absoluteDatabaseUrl(configuredDatabase) : `sqlite:${path.join(dataDir, 'rollcall.db')}`;

  const role = (text(env, 'ROLE') ?? 'all').toLowerCase();
  if (!(ROLES as readonly string[]).includes(role)) throw new ConfigError('ROLE', `expected api, worker or all, got "${role}"`);

  const logLevel = text(env, 'LOG_LEVEL') ?? (mode === 'test' ? 'silent' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `expected one of fatal, error, warn, info, debug, trace, silent`);
  }

  const bootstrapApiKey = text(env, 'BOOTSTRAP_API_KEY');
  if (bootstrapApiKey !== null && !API_KEY_PATTERN.test(bootstrapApiKey)) {
    throw new ConfigError('BOOTSTRAP_API_KEY', 'expected "rk_" followed by 40 letters and digits (A-Z, a-z, 0-9)');
  }
  const bootstrapAdminEmail = text(env, 'BOOTSTRAP_ADMIN_EMAIL') ?? 'admin@localhost';
  if (!/^[^\s@]+@[^\s@]+$/.test(bootstrapAdminEmail)) {
    throw new ConfigError('BOOTSTRAP_ADMIN_EMAIL', `expected an e-mail address, got "${bootstrapAdminEmail}"`);
  }

  const mailFrom = text(env, 'MAIL_FROM') ?? 'Rollcall <no-reply@localhost>';
  const inboundSmtpPort = text(env, 'INBOUND_SMTP_PORT') === null ? null : integer(env, 'INBOUND_SMTP_PORT', 0, 0, 65535);

  const hourlyBudgets = { ...DEFAULT_HOURLY_BUDGETS };
  for (const scope of RATE_LIMIT_SCOPES) {
    hourlyBudgets[scope] = integer(env, `RATE_LIMIT_${scope.toUpperCase()}`, hourlyBudgets[scope], 1);
  }

  return {
    env: mode,
    role: role as Role,
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    database: {
      poolSize: integer(env, 'DATABASE_POOL_SIZE', DEFAULT_DATABASE_OPTIONS.poolSize, 1, 1000),
      statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_DATABASE_OPTIONS.statementTimeoutMs, 0, 86_400_000),
      connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_OPTIONS.connectTimeoutMs, 100, 600_000),
    },
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? null,
    trustProxy: trustProxy(env),
    logLevel,
    requireHttps: boolean(env, 'REQUIRE_HTTPS', mode === 'production'),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    inboundEmailDomain: text(env, 'INBOUND_EMAIL_DOMAIN') ?? 'inbox.localhost',
    inboundSmtpPort,
    inboundEmailSecret: text(env, 'INBOUND_EMAIL_SECRET'),
    allowPrivateWebhooks: boolean(env, 'ALLOW_PRIVATE_WEBHOOKS', false),
    siteDir: text(env, 'SITE_DIR') ? installPath(text(env, 'SITE_DIR')!) : null,
    appDir: installPath(text(env, 'APP_DIR') ?? 'app/dist'),
    llm: {
      baseUrl: url(env, 'LLM_BASE_URL', ['http:', 'https:']),
      apiKey: text(env, 'LLM_API_KEY'),
      model: text(env, 'LLM_MODEL') ?? 'gpt-4o-mini',
      timeoutMs: integer(env, 'LLM_TIMEOUT_MS', 60_000, 1000, 600_000),
    },
    cliDownloadUrl: url(env, 'CLI_DOWNLOAD_URL', ['https:', 'http:']),
    agentSelfRegistration: boolean(env, 'AGENT_SELF_REGISTRATION', false),
    agentEmailHourlyLimit: agentEmailLimits(env),
    bootstrapAdminEmail,
    bootstrapApiKey,
    authCacheSeconds: integer(env, 'AUTH_CACHE_SECONDS', 60, 0, 60),
    hourlyBudgets,
    enterpriseMultiplier: integer(env, 'RATE_LIMIT_ENTERPRISE_MULTIPLIER', 5, 1),
    planMinuteLimits: {
      reads: integer(env, 'PLAN_RATE_LIMIT_READS', 120, 1),
      writes: integer(env, 'PLAN_RATE_LIMIT_WRITES', 60, 1),
      bulk: integer(env, 'PLAN_RATE_LIMIT_BULK', 30, 1),
      delta: integer(env, 'PLAN_RATE_LIMIT_DELTA', 240, 1),
    },
    planLockTimeoutMs: integer(env, 'PLAN_LOCK_TIMEOUT_MS', 5000, 10, 600_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    delivery: {
      concurrency: integer(env, 'DELIVERY_CONCURRENCY', 16, 1, 1024),
      retryScheduleMs: durationList(env, 'DELIVERY_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE_MS),
      pollMs: integer(env, 'DELIVERY_POLL_MS', 1000, 10, 3_600_000),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 600_000),
    },
    encryptionKey: encryptionKey(env, 'ENCRYPTION_KEY'),
    chat: {
      slackApiUrl: (url(env, 'SLACK_API_URL', ['https:', 'http:']) ?? 'https://slack.com/api').replace(/\/+$/, ''),
      discordWebhookBaseUrl: url(env, 'DISCORD_WEBHOOK_BASE_URL', ['https:']) ?? 'https://discord.com/api/webhooks/',
      discordApiUrl: (url(env, 'DISCORD_API_URL', ['https:', 'http:']) ?? 'https://discord.com/api/v10').replace(/\/+$/, ''),
      googleChatWebhookBaseUrl: url(env, 'GOOGLE_CHAT_WEBHOOK_BASE_URL', ['https:']) ?? 'https://chat.googleapis.com/v1/spaces/',
      teamsWebhookBaseUrl: url(env, 'TEAMS_WEBHOOK_BASE_URL', ['https:']),
      teamsOpenIdMetadataUrl: url(env, 'TEAMS_OPENID_METADATA_URL', ['https:', 'http:']) ?? 'https://login.botframework.com/v1/.well-known/openidconfiguration',
      teamsLoginUrl: (url(env, 'TEAMS_LOGIN_URL', ['https:', 'http:']) ?? 'https://login.microsoftonline.com').replace(/\/+$/, ''),
      googleChatApiUrl: (url(env, 'GOOGLE_CHAT_API_URL', ['https:', 'http:']) ?? 'https://chat.googleapis.com').replace(/\/+$/, ''),
      googleChatKeysUrl: url(env, 'GOOGLE_CHAT_KEYS_URL', ['https:', 'http:']) ?? 'https://www.googleapis.com/service_accounts/v1/jwk/chat@system.gserviceaccount.com',
      googleTokenUrl: url(env, 'GOOGLE_TOKEN_URL', ['https:', 'http:']) ?? 'https://oauth2.googleapis.com/token',
    },
    attachments: attachmentStorage(env),
  };
}
