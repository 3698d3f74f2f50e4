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
import { testDatabase } from './database.ts';
import type { Clock } from '../src/lib/clock.ts';
import type { Logger } from '../src/lib/logger.ts';

/**
 * The real app on a freshly migrated database (a SQLite file in a fresh temporary directory, or a PostgreSQL
 * database: test/database.ts) behind a listener on an ephemeral 127.0.0.1 port. Shared by the test harness and
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
  /** Another app's database (as a second process would share it): used, not dropped at close. */
  databaseUrl?: string;
}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), options.dirPrefix));
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => {} } : await testDatabase(dir);
  const config = { ...options.config(dir), databaseUrl: database.url };
  const db = createDb(config.databaseUrl, config.database, options.logger);
  await migrateLatest(db);
  const { app, routes, deps, accessLog, close: closeApp } = createApp({ db, clock: options.clock, config, logger: options.logger, delivery: options.delivery });
  const server = http.createServer(options.keepAliveTimeout === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeout }, app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function close(): Promise<void> {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeApp();
    await db.destroy();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { dir, url, db, config, deps, routes, accessLog, close };
}
