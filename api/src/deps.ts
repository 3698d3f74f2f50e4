import type { Config } from './config.ts';
import type { Db } from './db/connection.ts';
import type { Clock } from './lib/clock.ts';
import type { Logger } from './logger.ts';
import type { CredentialCache } from './features/auth/cache.ts';
import type { RateCounters } from './http/rate-counters.ts';

/** Everything a route factory may use. Built once by createApp; tests build it with their own clock and db. */
export interface Deps {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  credentialCache: CredentialCache;
  rateCounters: RateCounters;
}
