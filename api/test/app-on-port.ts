import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.ts';
import type { AppDependencies } from '../src/app.ts';
import type { Config } from '../src/lib/config.ts';
import { createDb } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { cloneTestDatabase, migratedTestDatabase } from './database.ts';
import type { Clock } from '../src/lib/clock.ts';
import type { Logger } from '../src/lib/logger.ts';

/**
 * The real app on a freshly migrated database (a SQLite file in a fresh temporary directory, or a PostgreSQL
 * database: test/database.ts; a copy of the run's migrated template when there is one) behind a listener on an ephemeral 127.0.0.1 port. Shared by the test harness and
 * the in-process benchmarks; close() ends open connections, then releases the app's services and the database,
 * and removes the directory.
 */
export async function startAppOnPort(options: {
  dirPrefix: string;
  config: (dataDir: string) => Config;
  clock: Clock;
  logger: Logger;
  delivery?: AppDependencies['delivery'];
  keepAliveTimeout?: number;
  /** A database to run on (migrated further if need be) instead of a fresh one; close() drops it as its own (a
   *  second process's share of another app's database passes a `drop` that does nothing). */
  database?: { url: string; drop: () => Promise<void> };
}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), options.dirPrefix));
  const database = options.database ?? (await migratedTestDatabase(dir));
  const config = { ...options.config(dir), databaseUrl: database.url };
  const db = createDb(config.databaseUrl, config.database, options.logger);
  await migrateLatest(db);
  const { app, routes, deps, accessLog, close: closeApp } = createApp({ db, clock: options.clock, config, logger: options.logger, delivery: options.delivery });
  // The server's keep-alive (65 s) unless a test asks otherwise: with Node's 5 s, a test pausing about that long under
  // load sends its next request on a socket the server is closing, and fetch fails with ECONNRESET.
  const server = http.createServer({ keepAliveTimeout: options.keepAliveTimeout ?? 65_000 }, app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Stops everything; with `copies`, first copies the database (nobody connected) that many times and returns the copies. */
  async function close(copies = 0): Promise<{ url: string; drop: () => Promise<void> }[]> {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeApp();
    await db.destroy();
    const made = [];
    for (let i = 0; i < copies; i++) made.push(await cloneTestDatabase(config.databaseUrl));
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
    return made;
  }
  return { dir, url, db, config, deps, routes, accessLog, close };
}
