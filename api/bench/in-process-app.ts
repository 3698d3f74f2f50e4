import { loadConfig, RATE_LIMIT_SCOPES } from '../src/lib/config.ts';
import type { Config } from '../src/lib/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/lib/logger.ts';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { testDatabase } from '../test/database.ts';
import type { TestEngine } from '../test/database-template.ts';
import { startAppOnPort } from '../test/app-on-port.ts';
import type { Db } from '../src/db/connection.ts';
import { createOrganization } from '../src/features/organization/service.ts';
import { createUser } from '../src/features/users/repository.ts';
import { issueKey } from '../src/features/api-keys/service.ts';

/**
 * The real app in this process on a temporary SQLite file (or a PostgreSQL database: `engine`), with hourly budgets and Plan minute ceilings out of the
 * way (benchmarks measure the work, not the throttle), behind a listener on 127.0.0.1.
 */
export async function startInProcessApp(name: string, options: { engine?: TestEngine } = {}) {
  const config = (dir: string): Config => {
    const base = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, REQUIRE_HTTPS: 'false', LOG_LEVEL: 'silent' });
    const hourlyBudgets = Object.fromEntries(RATE_LIMIT_SCOPES.map((scope) => [scope, 10_000_000])) as Config['hourlyBudgets'];
    const planMinuteLimits = { reads: 10_000_000, writes: 10_000_000, bulk: 10_000_000, delta: 10_000_000 };
    return { ...base, hourlyBudgets, planMinuteLimits };
  };
  // On PostgreSQL (TEST_DATABASE_URL's server): a fresh database, migrated by the app and dropped at close.
  const database = options.engine === 'postgres' ? await testDatabase(fs.mkdtempSync(path.join(os.tmpdir(), `rollcall-bench-${name}-pg-`)), { engine: 'postgres' }) : undefined;
  return startAppOnPort({ dirPrefix: `rollcall-bench-${name}-`, config, clock: systemClock, logger: createLogger('silent'), keepAliveTimeout: 60_000, database });
}

/** An enterprise organization with Plan on and one person with a personal key: who a sequential measurement acts as. */
export async function planPerson(db: Db, name: string): Promise<{ organizationUuid: string; key: string }> {
  const now = new Date();
  const org = await createOrganization(db, { name, plan: 'enterprise', planBetaEnabled: true }, now);
  const person = await createUser(db, { organizationUuid: org.uuid, email: `${name.toLowerCase()}@bench.test`, firstName: name }, now);
  const key = (await issueKey(db, { organizationUuid: org.uuid, ownerUuid: person.uuid, kind: 'personal', name }, now)).secret;
  return { organizationUuid: org.uuid, key };
}

/** Requests one at a time over one keep-alive connection, as `key`, each timed from send to the answer's end (µs). */
export function sequentialClient(url: string, key: string) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; text: string; us: number }>((resolve, reject) => {
      const text = body === undefined ? '' : JSON.stringify(body);
      const started = performance.now();
      const req = http.request(
        {
          host: target.hostname, port: target.port, method, path: pathname, agent,
          headers: { 'x-api-key': key, ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}), ...headers },
        },
        (res) => {
          let answer = '';
          res.on('data', (chunk: Buffer) => (answer += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: answer, us: (performance.now() - started) * 1000 }));
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  return { send, close: () => agent.destroy() };
}
