import module from 'node:module';
import { ADMIN } from './admin/index.ts';
import type { BootstrapResult } from './bootstrap.ts';
import { CLIENT_COMMANDS } from './client/index.ts';
import { systemClock } from './lib/clock.ts';
import { CommandFailure, formatResult } from './lib/command-line.ts';
import type { Command, Group } from './lib/command-line.ts';
import { displayDatabaseUrl, loadConfig } from './lib/config.ts';
import type { Config } from './lib/config.ts';
import type { RunningServer } from './server.ts';

/**
 * The `rollcall` command's table (lib/command-line.ts reads it): the server's commands, the operator's (`admin`,
 * admin/index.ts) and the client's (client/index.ts). The server, the database and the operator modules are
 * imported by the commands that use them: a client command (rollcall status, …) then starts in a fraction of the
 * time and memory, and `--help` loads none of them.
 */
const server = (summary: string, run: () => Promise<void>): Command => ({ usage: '', summary, run });

export const ROLLCALL: Group = {
  summary: 'self-hosted team check-ins and agent reporting',
  commands: {
    serve: server('start the API (PORT, DATA_DIR, … from the environment)', serve),
    healthcheck: server('exit 0 when the local server answers /healthz (container probe)', healthcheck),
    precompile: server("fill Node's compile cache with every server module (image build)", precompile),
    migrate: server('create or upgrade the database without starting the server', migrate),
    admin: ADMIN,
    ...CLIENT_COMMANDS,
  },
};

async function serve(): Promise<void> {
  // The configuration first: a bad variable is reported before the server's modules load.
  const settings = loadConfig();
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
  if (!directory) throw new CommandFailure('the compile cache is off: run this through bin/rollcall.js (npx rollcall precompile)');
  await Promise.all([import('./server.ts'), import('./admin/commands.ts'), import('./client/index.ts'), import('./mcp/endpoint.ts')]);
  const { migrations } = await import('./db/migrations/index.ts');
  for (const migration of migrations) await migration.load();
  await (await import('./openapi/catalog.ts')).loadParts();
  module.flushCompileCache();
  process.stdout.write(`compile cache: ${directory}\n`);
}

/** Creates or upgrades the configured database, checks its encryption key (as a start would), and exits. */
async function migrate(): Promise<void> {
  const settings = loadConfig();
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
    process.stdout.write(formatResult({ database: displayDatabaseUrl(settings.databaseUrl), migrations_applied: applied.length, encryption_key_fingerprint: key.fingerprint }, false));
  } catch (err) {
    throw explainStartError(err, settings.databaseUrl);
  } finally {
    await db.destroy();
  }
}
