import http from 'node:http';
import type { Socket } from 'node:net';
import { StartupError, displayDatabaseUrl } from './lib/config.ts';
import type { Config } from './lib/config.ts';
import { createDb, isPostgresUrl, sqliteFilename } from './db/connection.ts';
import { explainStartError } from './db/start-errors.ts';
import { DatabaseInUseError, holdSqliteServer } from './db/sqlite-files.ts';
import type { Db } from './db/connection.ts';
import { migrateLatest, withStartupLock } from './db/migrate.ts';
import { startCheckpointer } from './db/checkpointer.ts';
import { systemClock } from './lib/clock.ts';
import type { Clock } from './lib/clock.ts';
import { createLogger } from './lib/logger.ts';
import type { Logger } from './lib/logger.ts';
import { createApp } from './app.ts';
import { bootstrapIfEmpty, markKeyShown, reissueUnshownKey } from './bootstrap.ts';
import type { BootstrapResult } from './bootstrap.ts';
import { startJobs } from './jobs/index.ts';
import { checkEncryptionKey } from './outbound/encryption-key.ts';

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  logger: Logger;
  /** What the first start created (or a new secret for a key an earlier start never showed); null otherwise. */
  bootstrap: BootstrapResult | null;
  /** Stops accepting, lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), stops jobs, closes the db. */
  close(): Promise<void>;
}

/**
 * Loads nothing itself: takes a parsed Config. Before anything is created it takes what a second server would
 * fight over: the SQLite file (one server per file) and the port (a StartupError naming DATA_DIR or PORT);
 * requests that arrive meanwhile answer 503. Then it migrates, checks the encryption key against the database
 * (an EncryptionKeyError when it cannot open the stored secrets), bootstraps, starts the jobs and serves.
 */
export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /**
   * Shows what the first start created, the generated admin key with it (the command prints it on the terminal).
   * Called under the startup lock, and the key counts as shown once it returns: a process started beside this one
   * waits, and a start that dies before showing it leaves the key to be given a new secret by the next start.
   */
  announce?: (first: BootstrapResult, url: string) => void;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const owner = holdDatabase(config);
  let handle: http.RequestListener = starting;
  const server = http.createServer((req, res) => handle(req, res));
  server.keepAliveTimeout = 65_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  try {
    await listen(server, config);
  } catch (err) {
    owner.release();
    throw err;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;

  const abandon: (err: unknown) => never = (err) => {
    server.close();
    owner.release();
    throw explainStartError(err, config.databaseUrl);
  };
  let db: Db;
  try {
    db = createDb(config.databaseUrl, config.database, logger);
  } catch (err) {
    abandon(err);
  }
  // Under the startup lock: the first of several processes started together stores the key's fingerprint and
  // bootstraps; the others then check against it and find the organization there.
  const { applied, bootstrap } = await withStartupLock(db, config.databaseUrl, async () => {
    const applied = await migrateLatest(db);
    await checkEncryptionKey(db, config, clock.now());
    const bootstrap = (await bootstrapIfEmpty(db, config, clock)) ?? (await reissueUnshownKey(db, clock));
    if (bootstrap && options.announce) {
      options.announce(bootstrap, url);
      if (bootstrap.generatedApiKey) await markKeyShown(db);
    }
    return { applied, bootstrap };
  }).catch(async (err: unknown) => {
    await db.destroy();
    return abandon(err);
  });
  // A count: the names are in the knex_migrations table (the list of 55 made one unreadable line).
  if (applied.length) logger.info({ migrations_applied: applied.length, latest: applied.at(-1) }, 'database migrated');

  const { app, deps, close: closeApp } = createApp({ db, clock, config, logger });
  const jobs = startJobs(deps);
  // SQLite: the WAL is copied into the database from a worker thread, not in a commit on this one (db/checkpointer.ts).
  const file = isPostgresUrl(config.databaseUrl) ? ':memory:' : sqliteFilename(config.databaseUrl);
  const checkpointer = file === ':memory:' ? null : await startCheckpointer(db, file, { logger });
  handle = app.callback();
  logger.info({ url, data_dir: config.dataDir, database: displayDatabaseUrl(config.databaseUrl) }, 'listening');
  if (config.requireHttps && config.trustProxy === null) {
    // Without a trusted proxy, X-Forwarded-Proto is not believed and this server speaks plain HTTP itself.
    logger.warn('REQUIRE_HTTPS is on and TRUST_PROXY is not set: every /v1/ request answers 403 https_required. Set TRUST_PROXY to the TLS proxy in front (its address, or 1), or REQUIRE_HTTPS=false');
  }

  let closing: Promise<void> | null = null;
  async function close(): Promise<void> {
    closing ??= (async () => {
      jobs.stop();
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections would hold close() open; in-flight requests finish on theirs.
      server.closeIdleConnections();
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), config.shutdownTimeoutMs).unref());
      if ((await Promise.race([drained, timeout])) === 'timeout') {
        logger.warn({ open_connections: sockets.size }, 'shutdown timeout: closing remaining connections');
        for (const socket of sockets) socket.destroy();
      }
      await jobs.idle();
      await closeApp();
      await checkpointer?.stop();
      await db.destroy();
      owner.release();
      logger.info('stopped');
      logger.flush();
    })();
    return closing;
  }

  return { url, port, db, logger, bootstrap, close };
}

/** What answers while the server migrates and bootstraps, on a port it already holds. */
function starting(_req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
  res.end(JSON.stringify({ detail: 'Rollcall is starting; retry in a moment.', code: 'starting' }));
}

/** Listens on PORT and HOST; a port in use or not allowed is a StartupError naming PORT. */
async function listen(server: http.Server, config: Config): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: NodeJS.ErrnoException) => {
    const where = `${config.host}:${config.port}`;
    if (err.code === 'EADDRINUSE') throw new StartupError('PORT', `${where} is already in use by another process: stop it, or set PORT to a free port`);
    if (err.code === 'EACCES') throw new StartupError('PORT', `${where} needs privileges this process does not have: set PORT to 1024 or above`);
    if (err.code === 'EADDRNOTAVAIL') throw new StartupError('HOST', `${config.host} is not an address of this machine: set HOST to one (0.0.0.0 for all)`);
    throw err;
  });
}

/** On SQLite, this server becomes the one process of the database file (README, "Several processes"). */
function holdDatabase(config: Config): { release(): void } {
  if (isPostgresUrl(config.databaseUrl)) return { release() {} };
  const file = sqliteFilename(config.databaseUrl);
  if (file === ':memory:') return { release() {} };
  try {
    const lock = holdSqliteServer(file);
    let held = true;
    return {
      release() {
        if (held) lock.release();
        held = false;
      },
    };
  } catch (err) {
    if (err instanceof DatabaseInUseError) {
      throw new StartupError('DATA_DIR', `another rollcall server is running on ${file}; on SQLite one process owns the database: stop that one, or give this one its own DATA_DIR`);
    }
    throw explainStartError(err, config.databaseUrl);
  }
}
