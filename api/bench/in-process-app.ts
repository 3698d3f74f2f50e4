import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig, RATE_LIMIT_SCOPES } from '../src/config.ts';
import { createDb } from '../src/db/connection.ts';
import { migrateLatest } from '../src/db/migrate.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';

/**
 * The real app in this process on a temporary SQLite file, with hourly budgets out of the way (benchmarks
 * measure the work, not the throttle), behind a listener on 127.0.0.1.
 */
export async function startInProcessApp(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rollcall-bench-${name}-`));
  const base = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, REQUIRE_HTTPS: 'false', LOG_LEVEL: 'silent' });
  const hourlyBudgets = Object.fromEntries(RATE_LIMIT_SCOPES.map((scope) => [scope, 10_000_000])) as typeof base.hourlyBudgets;
  const config = { ...base, hourlyBudgets };
  const db = createDb(config.databaseUrl);
  await migrateLatest(db);
  const { app, deps, close: closeApp } = createApp({ db, clock: systemClock, config, logger: createLogger('silent') });
  const server = http.createServer({ keepAliveTimeout: 60_000 }, app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  async function close(): Promise<void> {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeApp();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { dir, db, deps, url, close };
}
