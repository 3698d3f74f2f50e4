#!/usr/bin/env node
import module from 'node:module';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './lib/config.ts';
import type { Config } from './lib/config.ts';
import { createDb } from './db/connection.ts';
import { migrateLatest, withStartupLock } from './db/migrate.ts';
import { systemClock } from './lib/clock.ts';
import { startServer } from './server.ts';
import * as admin from './admin/commands.ts';

const USAGE = `rollcall: self-hosted team check-ins and agent reporting

Usage:
  rollcall serve                         start the API (PORT, DATA_DIR, … from the environment)
  rollcall healthcheck                   exit 0 when the local server answers /healthz (container probe)
  rollcall precompile                    fill Node's compile cache with every server module (image build)
  rollcall admin org create --name N [--plan free|basic|pro|enterprise] [--beta]
  rollcall admin org plan ORG PLAN
  rollcall admin org beta ORG on|off
  rollcall admin org exchange ORG on|off
  rollcall admin read-only on|off        Plan writes answer 503 while on (incident switch)
  rollcall admin user create --org ORG --email E [--role admin|manager|member|guest]
  rollcall admin user deactivate USER
  rollcall admin key create --user USER [--kind personal|agent|organization] [--name N]
  rollcall admin backup FILE             online backup of the SQLite database

ORG is an organization's uuid, slug or name; USER a user's uuid or e-mail.
Add --json to any admin command for machine-readable output.`;

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
  const server = await startServer(config());
  if (server.bootstrap) {
    // Printed once, on the terminal only: the secret never goes through the logger.
    process.stdout.write(
      `\nRollcall is ready at ${server.url}\n` +
        `First start: created organization ${server.bootstrap.organizationUuid} and admin ${server.bootstrap.adminEmail}.\n` +
        `Admin API key (shown once, store it now):\n\n  ${server.bootstrap.apiKey}\n\n` +
        `Try: curl -H "X-API-KEY: ${server.bootstrap.apiKey}" ${server.url}/v1/me/\n\n`,
    );
  }
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
 * Loads every module a server can need, the lazily loaded ones too (migrations, the OpenAPI catalogue), so that
 * Node's compile cache (enabled by bin/rollcall.js) holds them all. A server whose modules are all cached never
 * starts Node's TypeScript stripper, which keeps about 20 MB of resident memory once it has run. The container
 * image runs this at build; elsewhere the first start fills the cache.
 */
async function precompile(): Promise<void> {
  const directory = module.getCompileCacheDir();
  if (!directory) fail('the compile cache is off: run this through bin/rollcall.js (npx rollcall precompile)');
  const { migrations } = await import('./db/migrations/index.ts');
  for (const migration of migrations) await migration.load();
  await (await import('./openapi/catalog.ts')).loadParts();
  module.flushCompileCache();
  process.stdout.write(`compile cache: ${directory}\n`);
}

function print(result: unknown, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  for (const [key, value] of Object.entries(result as Record<string, unknown>)) {
    process.stdout.write(`${key.padEnd(18)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}\n`);
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
    },
  });
  const settings = config();
  const db = createDb(settings.databaseUrl, settings.database);
  const clock = systemClock;
  try {
    await withStartupLock(db, settings.databaseUrl, () => migrateLatest(db));
    const [group, action, ...rest] = positionals;
    const command = `${group ?? ''} ${['read-only', 'backup'].includes(group) ? '' : (action ?? '')}`.trim();
    let result: unknown;
    switch (command) {
      case 'org create': result = await admin.createOrganizationCommand(db, clock, values); break;
      case 'org plan': result = await admin.setPlanCommand(db, clock, rest[0], rest[1]); break;
      case 'org beta': result = await admin.setBetaCommand(db, clock, rest[0], rest[1]); break;
      case 'org exchange': result = await admin.setExchangeCommand(db, clock, rest[0], rest[1]); break;
      case 'read-only': result = await admin.readOnlyCommand(db, clock, action); break;
      case 'user create': result = await admin.createUserCommand(db, clock, values); break;
      case 'user deactivate': result = await admin.deactivateUserCommand(db, clock, rest[0]); break;
      case 'key create': result = await admin.createKeyCommand(db, clock, values); break;
      case 'backup': result = await admin.backupCommand(db, action); break;
      default: fail(`unknown admin command "${positionals.join(' ')}"\n\n${USAGE}`, 2);
    }
    print(result, values.json);
  } catch (err) {
    if (err instanceof admin.CommandError) fail(err.message, 2);
    throw err;
  } finally {
    await db.destroy();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': return serve();
    case 'healthcheck': return healthcheck();
    case 'precompile': return precompile();
    case 'admin': return runAdmin(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      fail(`unknown command "${command}"\n\n${USAGE}`, 2);
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof ConfigError) fail(`configuration error: ${err.message}`);
  fail(err instanceof Error ? (err.stack ?? err.message) : String(err));
});
