import type { Config } from '../lib/config.ts';
import type { Db } from '../db/connection.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';
import type { CredentialCache } from '../auth/cache.ts';
import type { RateCounters } from './rate-counters.ts';
import type { DeliveryServices } from '../wiring.ts';
import type { GroupCommit } from '../db/group-commit.ts';

/**
 * Everything a route factory may use. Built once by createApp; tests build it with their own clock and db.
 * From DeliveryServices: `secretBox` (AES-256-GCM for stored secrets), `mailer` (null without SMTP_URL),
 * `delivery` (the worker pool: kick(), runDue(), onDelivered()/onGone() hooks), `inboundRoutes` (register
 * inbound e-mail handlers), `outbound` (the SSRF-checking HTTP client).
 */
export interface Deps extends DeliveryServices {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  credentialCache: CredentialCache;
  rateCounters: RateCounters;
  /** Group commit for high-rate small writes (agent reports and health checks): see db/group-commit.ts. */
  writes: GroupCommit;
}
