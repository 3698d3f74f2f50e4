import { loadConfig, RATE_LIMIT_SCOPES } from '../src/lib/config.ts';
import type { Config } from '../src/lib/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/lib/logger.ts';
import { startAppOnPort } from '../test/app-on-port.ts';

/**
 * The real app in this process on a temporary SQLite file, with hourly budgets and Plan minute ceilings out of the
 * way (benchmarks measure the work, not the throttle), behind a listener on 127.0.0.1.
 */
export async function startInProcessApp(name: string) {
  const config = (dir: string): Config => {
    const base = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, REQUIRE_HTTPS: 'false', LOG_LEVEL: 'silent' });
    const hourlyBudgets = Object.fromEntries(RATE_LIMIT_SCOPES.map((scope) => [scope, 10_000_000])) as Config['hourlyBudgets'];
    const planMinuteLimits = { reads: 10_000_000, writes: 10_000_000, bulk: 10_000_000, delta: 10_000_000 };
    return { ...base, hourlyBudgets, planMinuteLimits };
  };
  return startAppOnPort({ dirPrefix: `rollcall-bench-${name}-`, config, clock: systemClock, logger: createLogger('silent'), keepAliveTimeout: 60_000 });
}
