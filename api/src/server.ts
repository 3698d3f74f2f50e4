import http from 'node:http';
import type { Socket } from 'node:net';
import { displayDatabaseUrl } from './lib/config.ts';
import type { Config } from './lib/config.ts';
import { createDb } from './db/connection.ts';
import type { Db } from './db/connection.ts';
import { migrateLatest, withStartupLock } from './db/migrate.ts';
import { systemClock } from './lib/clock.ts';
import type { Clock } from './lib/clock.ts';
import { createLogger } from './lib/logger.ts';
import type { Logger } from './lib/logger.ts';
import { createApp } from './app.ts';
import { bootstrapIfEmpty } from './bootstrap.ts';
import type { BootstrapResult } from './bootstrap.ts';
import { startJobs } from './jobs/index.ts';
import { checkEncryptionKey } from './outbound/encryption-key.ts';

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  logger: Logger;
  bootstrap: BootstrapResult | null;
  /** Stops accepting, lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), stops jobs, closes the db. */
  close(): Promise<void>;
}

/**
 * Loads nothing itself: takes a parsed Config, migrates, checks the encryption key against the database (an
 * EncryptionKeyError when it cannot open the stored secrets), bootstraps, starts the jobs and listens.
 */
export async function startServer(config: Config, options: { clock?: Clock; logger?: Logger } = {}): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const db = createDb(config.databaseUrl, config.database, logger);
  // Under the startup lock: the first of several processes started together stores the key's fingerprint and
  // bootstraps; the others then check against it and find the organization there.
  const { applied, bootstrap } = await withStartupLock(db, config.databaseUrl, async () => {
    const applied = await migrateLatest(db);
    await checkEncryptionKey(db, config, clock.now());
    return { applied, bootstrap: await bootstrapIfEmpty(db, config, clock) };
  }).catch(async (err: unknown) => {
    await db.destroy();
    throw err;
  });
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');

  const { app, deps, close: closeApp } = createApp({ db, clock, config, logger });
  const jobs = startJobs(deps);

  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
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
      await db.destroy();
      logger.info('stopped');
      logger.flush();
    })();
    return closing;
  }

  return { url, port, db, logger, bootstrap, close };
}
