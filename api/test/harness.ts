import fs from 'node:fs';
import path from 'node:path';
import type { AppDependencies } from '../src/app.ts';
import { loadConfig } from '../src/lib/config.ts';
import type { Config } from '../src/lib/config.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { createUser } from '../src/features/users/repository.ts';
import { issueKey } from '../src/features/api-keys/service.ts';
import { issueCliToken } from '../src/auth/tokens.ts';
import { startAppOnPort } from './app-on-port.ts';
import { recordExchange } from './exchanges.ts';
import type { KeyKind, PlanName, Role } from '../src/db/tables.ts';

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  key?: string;
  token?: string;
  body?: unknown;
  /** Sent verbatim, for malformed-JSON and size tests. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** Make this exchange its operation's example in the OpenAPI document (`npm run examples -w api`). */
  example?: boolean;
}

/** Processes sharing a database share its encryption key (ENCRYPTION_KEY, or the first one's key file). */
function sharedKey(first: Config | undefined): Partial<Config> {
  if (!first) return {};
  return { encryptionKey: first.encryptionKey ?? Buffer.from(fs.readFileSync(path.join(first.dataDir, 'encryption.key'), 'utf8').trim(), 'base64') };
}

/**
 * A real app on a real SQLite file behind a real listener on 127.0.0.1, with a clock the test controls and
 * the log lines captured (so tests can check that no secret is ever logged).
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  env: Record<string, string> = {},
  delivery: AppDependencies['delivery'] = {},
  options: {
    /** A database to run on instead of a fresh one (dropped at close). */
    database?: { url: string; drop: () => Promise<void> };
    /** Run as another process of `sameDatabaseAs`: its database (its own connections, not dropped), its clock. */
    sameDatabaseAs?: { config: Config; clock: ManualClock };
    /** The listener's keep-alive timeout (the server's, 65 s, unless given). */
    keepAliveTimeout?: number;
  } = {},
) {
  const { sameDatabaseAs } = options;
  const clock = sameDatabaseAs?.clock ?? new ManualClock('2026-03-10T15:00:00.000Z');
  const logs: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logs.push(line) });
  const { url, db, config, deps, routes, accessLog, close } = await startAppOnPort({
    dirPrefix: 'rollcall-test-',
    config: (dir): Config => ({ ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, ...env }), logLevel: 'info', ...sharedKey(sameDatabaseAs?.config), ...overrides }),
    clock,
    logger,
    delivery,
    keepAliveTimeout: options.keepAliveTimeout,
    database: options.database ?? (sameDatabaseAs ? { url: sameDatabaseAs.config.databaseUrl, drop: async () => {} } : undefined),
  });

  async function request(method: string, pathname: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.key) headers['x-api-key'] = options.key;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${url}${pathname}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    recordExchange(
      routes,
      method,
      pathname,
      body === undefined ? undefined : { content_type: headers['content-type'], body: options.raw === undefined ? options.body : String(options.raw) },
      { status: res.status, content_type: res.headers.get('content-type') ?? '', body: parsed ?? text },
      options.example === true,
    );
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  /** An organization with an admin and the admin's personal key. */
  async function seedOrganization(options: { name?: string; plan?: PlanName; beta?: boolean } = {}) {
    const now = clock.now();
    const org = await createOrganization(db, { name: options.name ?? 'Acme', plan: options.plan ?? 'pro', planBetaEnabled: options.beta ?? false }, now);
    const admin = await createUser(db, { organizationUuid: org.uuid, email: `admin@${org.slug}.test`, firstName: 'Ada', lastName: 'Admin', role: 'admin' }, now);
    const { secret: adminKey, uuid: adminKeyUuid } = await issueKey(db, { organizationUuid: org.uuid, ownerUuid: admin.uuid, kind: 'personal', name: 'admin' }, now);
    return { org, admin, adminKey, adminKeyUuid };
  }

  /** A user of `organizationUuid` with a personal key (or another kind) and, on request, a CLI token. */
  async function seedUser(organizationUuid: string, options: { role?: Role; email?: string; kind?: KeyKind; firstName?: string } = {}) {
    const now = clock.now();
    const user = await createUser(
      db,
      { organizationUuid, email: options.email ?? `user${Math.random().toString(36).slice(2, 8)}@example.test`, firstName: options.firstName ?? 'Mia', lastName: 'Member', role: options.role ?? 'member' },
      now,
    );
    const key = await issueKey(db, { organizationUuid, ownerUuid: user.uuid, kind: options.kind ?? 'personal', name: 'test' }, now);
    return { user, key: key.secret, keyUuid: key.uuid };
  }

  async function seedToken(organizationUuid: string, userUuid: string) {
    return (await issueCliToken(db, { organizationUuid, userUuid }, clock.now())).token;
  }

  return {
    url, db, clock, config, deps, routes, request, seedOrganization, seedUser, seedToken,
    close: async (): Promise<void> => void (await close()),
    /** Closes the app and returns `copies` copies of its database as it was (test/parity.ts starts two apps on them). */
    closeIntoCopies: (copies: number) => close(copies),
    /** Everything logged so far; access-log lines are buffered by the app, so reading flushes them first. */
    get logs(): string[] {
      accessLog.flush();
      return logs;
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
