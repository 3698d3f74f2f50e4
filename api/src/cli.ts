#!/usr/bin/env node
import module from 'node:module';
import { parseArgs } from 'node:util';
import { ConfigError, StartupError, displayDatabaseUrl, loadConfig } from './lib/config.ts';
import type { Config } from './lib/config.ts';
import fs from 'node:fs';
import { systemClock } from './lib/clock.ts';
import type { RunningServer } from './server.ts';
import type { BootstrapResult } from './bootstrap.ts';

// The server, the database and the operator commands are imported by the commands that use them: a client
// command (rollcall status, …) then starts in a fraction of the time and memory.

const USAGE = `rollcall: self-hosted team check-ins and agent reporting

Usage:
  rollcall serve                         start the API (PORT, DATA_DIR, … from the environment)
  rollcall healthcheck                   exit 0 when the local server answers /healthz (container probe)
  rollcall precompile                    fill Node's compile cache with every server module (image build)
  rollcall migrate                       create or upgrade the database without starting the server
  rollcall admin org create --name N [--plan free|basic|pro|enterprise] [--beta]
  rollcall admin org plan ORG PLAN
  rollcall admin org beta ORG on|off
  rollcall admin org exchange ORG on|off
  rollcall admin read-only on|off        Plan writes answer 503 while on (incident switch)
  rollcall admin user create --org ORG --email E [--role admin|manager|member|guest] [--first-name F] [--last-name L]
  rollcall admin user deactivate USER [--org ORG]
  rollcall admin key create --user USER [--org ORG] [--kind personal|agent|organization] [--name N]
  rollcall admin backup DIR              online backup: the SQLite database, its encryption key, a manifest
  rollcall admin restore DIR [--force]   put a backup in place (stop the server first; --force replaces data)
  rollcall admin forget-secrets [--yes]  the encryption key is lost: remove the webhooks and chat
                                         connections it sealed and give workflows new secrets, so the
                                         server starts with a new key
  rollcall admin outbox [--last N] [--to ADDRESS]   recent outgoing e-mail, whole (also what is held while
                                         SMTP_URL is unset: sign-in codes, check-in prompts)

ORG is an organization's uuid, slug or name; USER a user's uuid or e-mail. One e-mail address may be a user of
several organizations (user create once per organization); --org then picks which.
DATA_DIR (default: data/ at the repository root) and other relative paths are relative to the repository root,
from whatever directory a command runs.
Add --json to any admin command for machine-readable output.`;

// The client commands' text lives with them (client/index.ts); it is loaded when asked for.
async function usage(): Promise<string> {
  const { CLIENT_USAGE } = await import('./client/index.ts');
  return `${USAGE}\n\n${CLIENT_USAGE}`;
}

function fail(message: string, code = 1): never {
  process.stderr.write(`rollcall: ${message}\n`);
  process.exit(code);
}

function config(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`configuration error: ${err.message}`);
    throw err;
  }
}

async function serve(): Promise<void> {
  // The configuration first: a bad variable is reported before the server's modules load.
  const settings = config();
  const { startServer } = await import('./server.ts');
  const server = await startServer(settings, { announce: (first, url) => process.stdout.write(firstStartBanner(first, url)) });
  process.stdout.write(readyBanner(server, settings));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err) => {
        server.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * What a person starting the server needs to see: where it listens, which data directory and database it uses
 * (so `rollcall admin …` can be pointed at the same). Printed on the terminal, never through the logger.
 */
function readyBanner(server: RunningServer, settings: Config): string {
  return `\nRollcall is ready at ${server.url}\n  data directory  ${settings.dataDir}\n  database        ${displayDatabaseUrl(settings.databaseUrl)}\n\n`;
}

/**
 * On the first start, what was created and the admin key, only when Rollcall generated it: a key supplied with
 * BOOTSTRAP_API_KEY is the operator's already and would only leak into logs. Printed while the start still holds
 * its startup lock (server.ts), before the key counts as shown.
 */
function firstStartBanner(first: BootstrapResult, url: string): string {
  let text = first.reissued
    ? `\nThe admin key of the first start was never shown (that start did not finish): it has a new secret now.\n`
    : `\nFirst start: created organization ${first.organizationUuid} and admin ${first.adminEmail}.\n`;
  text += first.generatedApiKey
    ? `Admin API key (shown once, store it now):\n\n  ${first.generatedApiKey}\n\nTry: curl -H "X-API-KEY: ${first.generatedApiKey}" ${url}/v1/me/\n`
    : 'Its API key is the one BOOTSTRAP_API_KEY sets.\n';
  return text;
}

async function healthcheck(): Promise<void> {
  const port = process.env.PORT || '8080';
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(3000) });
    process.exit(res.ok ? 0 : 1);
  } catch {
    process.exit(1);
  }
}

/**
 * Loads every module a server can need, the lazily loaded ones too (migrations, the OpenAPI catalogue, the MCP endpoint), so that
 * Node's compile cache (enabled by bin/rollcall.js) holds them all. A server whose modules are all cached never
 * starts Node's TypeScript stripper, which keeps about 20 MB of resident memory once it has run. The container
 * image runs this at build; elsewhere the first start fills the cache.
 */
async function precompile(): Promise<void> {
  const directory = module.getCompileCacheDir();
  if (!directory) fail('the compile cache is off: run this through bin/rollcall.js (npx rollcall precompile)');
  await Promise.all([import('./server.ts'), import('./admin/commands.ts'), import('./client/index.ts'), import('./mcp/endpoint.ts')]);
  const { migrations } = await import('./db/migrations/index.ts');
  for (const migration of migrations) await migration.load();
  await (await import('./openapi/catalog.ts')).loadParts();
  module.flushCompileCache();
  process.stdout.write(`compile cache: ${directory}\n`);
}

/** Creates or upgrades the configured database, checks its encryption key (as a start would), and exits. */
async function migrate(): Promise<void> {
  const settings = config();
  const [{ createDb }, { migrateLatest, withStartupLock }, { checkEncryptionKey }, { explainStartError }] = await Promise.all([
    import('./db/connection.ts'),
    import('./db/migrate.ts'),
    import('./outbound/encryption-key.ts'),
    import('./db/start-errors.ts'),
  ]);
  const db = createDb(settings.databaseUrl, settings.database);
  try {
    const { applied, key } = await withStartupLock(db, settings.databaseUrl, async () => ({
      applied: await migrateLatest(db),
      key: await checkEncryptionKey(db, settings, systemClock.now()),
    }));
    print({ database: displayDatabaseUrl(settings.databaseUrl), migrations_applied: applied.length, encryption_key_fingerprint: key.fingerprint }, false);
  } catch (err) {
    throw explainStartError(err, settings.databaseUrl);
  } finally {
    await db.destroy();
  }
}

function print(result: unknown, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const entries = Object.entries(result as Record<string, unknown>);
  const width = Math.max(...entries.map(([key]) => key.length)) + 1;
  for (const [key, value] of entries) {
    process.stdout.write(`${key.padEnd(width)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}\n`);
  }
}

async function runAdmin(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      name: { type: 'string' },
      plan: { type: 'string' },
      beta: { type: 'boolean', default: false },
      org: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      user: { type: 'string' },
      kind: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      force: { type: 'boolean', default: false },
      yes: { type: 'boolean', default: false },
      last: { type: 'string' },
      to: { type: 'string' },
    },
  });
  const settings = config();
  const [{ createDb, sqliteFilename }, { migrateLatest, withStartupLock }, admin, { backupCommand, restoreCommand }, { forgetSecretsCommand }, { loadSecretBox, existingSecretBox }, { explainStartError }, outbox] = await Promise.all([
    import('./db/connection.ts'),
    import('./db/migrate.ts'),
    import('./admin/commands.ts'),
    import('./admin/backup.ts'),
    import('./admin/forget-secrets.ts'),
    import('./outbound/encryption-key.ts'),
    import('./db/start-errors.ts'),
    import('./admin/outbox.ts'),
  ]);
  const clock = systemClock;
  const [group, action, ...rest] = positionals;
  try {
    // Restore writes the database file itself (the server must be stopped); every other command opens it.
    if (group === 'restore') return print(await restoreCommand(settings, clock, action, values.force), values.json);
    const missing = missingDatabase(settings, sqliteFilename);
    if (missing) throw new admin.CommandError(missing);
    const db = createDb(settings.databaseUrl, settings.database);
    try {
      await withStartupLock(db, settings.databaseUrl, () => migrateLatest(db)).catch((err: unknown) => {
        throw explainStartError(err, settings.databaseUrl);
      });
      const command = `${group ?? ''} ${['read-only', 'backup', 'forget-secrets', 'outbox'].includes(group) ? '' : (action ?? '')}`.trim();
      if (command === 'outbox') {
        const mails = await outbox.outboxCommand(db, () => existingSecretBox(settings), values);
        process.stdout.write(values.json ? `${JSON.stringify(mails)}\n` : outbox.formatOutbox(mails, settings.smtpUrl !== null));
        return;
      }
      let result: unknown;
      switch (command) {
        case 'org create': result = await admin.createOrganizationCommand(db, clock, values); break;
        case 'org plan': result = await admin.setPlanCommand(db, clock, rest[0], rest[1]); break;
        case 'org beta': result = await admin.setBetaCommand(db, clock, rest[0], rest[1]); break;
        case 'org exchange': result = await admin.setExchangeCommand(db, clock, rest[0], rest[1]); break;
        case 'read-only': result = await admin.readOnlyCommand(db, clock, action); break;
        case 'user create': result = await admin.createUserCommand(db, clock, values); break;
        case 'user deactivate': result = await admin.deactivateUserCommand(db, clock, rest[0], values.org); break;
        case 'key create': result = await admin.createKeyCommand(db, clock, values); break;
        case 'backup': result = await backupCommand(db, settings, clock, action); break;
        case 'forget-secrets': result = await forgetSecretsCommand(db, clock, values.yes, () => loadSecretBox(settings)); break;
        default: fail(`unknown admin command "${positionals.join(' ')}"\n\n${USAGE}`, 2);
      }
      print(result, values.json);
    } finally {
      await db.destroy();
    }
  } catch (err) {
    if (err instanceof admin.NotFoundError) fail(`${err.message} in ${displayDatabaseUrl(settings.databaseUrl)}`, 2);
    if (err instanceof admin.CommandError) fail(err.message, 2);
    throw err;
  }
}

/**
 * Operator commands work on the database the server uses; on a SQLite file that does not exist they stop
 * instead of creating an empty one elsewhere (a wrong DATA_DIR would otherwise look like a missing user).
 */
function missingDatabase(settings: Config, sqliteFilename: (url: string) => string): string | null {
  if (/^postgres(ql)?:/.test(settings.databaseUrl)) return null;
  const file = sqliteFilename(settings.databaseUrl);
  if (fs.existsSync(file)) return null;
  return `no database at ${file}: start the server once (npm start) or run \`rollcall migrate\` to create it, or set DATA_DIR (or DATABASE_URL) to the one the server uses`;
}

/** The client commands (login, status, update, …): a small part of the server's code, loaded only for them. */
const CLIENT_COMMANDS = new Set(['login', 'logout', 'status', 'me', 'checkins', 'update', 'report', 'health', 'messages', 'mcp']);

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== undefined && CLIENT_COMMANDS.has(command)) {
    const { runClient } = await import('./client/index.ts');
    process.exitCode = await runClient(command, rest);
    return;
  }
  switch (command) {
    case 'serve': return serve();
    case 'healthcheck': return healthcheck();
    case 'precompile': return precompile();
    case 'migrate': return migrate();
    case 'admin': return runAdmin(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${await usage()}\n`);
      return;
    default:
      fail(`unknown command "${command}"\n\n${await usage()}`, 2);
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof ConfigError) fail(`configuration error: ${err.message}`);
  if (err instanceof StartupError) fail(err.message);
  // By name: the module that defines it is loaded only by the commands that open a database.
  if (err instanceof Error && err.name === 'EncryptionKeyError') fail(`cannot open the database: ${err.message}`);
  fail(err instanceof Error ? (err.stack ?? err.message) : String(err));
});
