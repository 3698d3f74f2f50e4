import type { CredentialCache } from '../auth/cache.ts';
import type { Db } from '../db/connection.ts';
import type { Budgets } from '../db/counters.ts';
import type { Notifications } from '../db/notifications.ts';
import type { GroupCommit } from '../db/group-commit.ts';
import type { InboundRoutes } from '../inbound/registry.ts';
import type { Clock } from '../lib/clock.ts';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { Resolver } from '../outbound/address-policy.ts';
import type { Mailer } from '../outbound/mailer.ts';
import type { OutboundHttp } from '../outbound/outbound-http.ts';
import type { SecretBox } from '../outbound/secret-box.ts';
import type { DeliveryWorker } from '../outbound/worker.ts';
import type { FileStore } from '../outbound/files/index.ts';
import type { Metrics } from './metrics.ts';

/** The delivery side of the app's services (wiring.ts builds them). */
export interface DeliveryServices {
  /** AES-256-GCM for the secrets Rollcall must send back out (webhook secrets, chat tokens). */
  secretBox: SecretBox;
  /** SMTP, or null without SMTP_URL: e-mail is then held in the outbox. */
  mailer: Mailer | null;
  /** The delivery worker pool: kick() after a commit that enqueued, runDue() in tests. */
  delivery: DeliveryWorker;
  /** Received e-mail: the inbound SMTP listener and POST /v1/inbound-email/ hand messages to it. */
  inboundRoutes: InboundRoutes;
  /**
   * The outbound HTTP client with the address policy (never raw fetch for user-supplied URLs), and the client for
   * the operator's language model (LLM_BASE_URL: the same client without the address policy, its own timeout).
   */
  outbound: { http: OutboundHttp; llm: OutboundHttp; resolve?: Resolver };
}

/**
 * Everything a feature may use: its routers, senders, inbound handlers and jobs get this. Built once by
 * createApp (app.ts); tests reach it as `t.deps`.
 */
export interface Deps extends DeliveryServices {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  credentialCache: CredentialCache;
  /** Every counted budget (hourly scopes, Plan minute ceilings, daily caps): exact across processes, db/counters.ts. */
  budgets: Budgets;
  /** Signals to the other processes on this database (cache invalidation, new deliveries): db/notifications.ts. */
  notifications: Notifications;
  /** Group commit for high-rate small writes (agent reports and health checks): see db/group-commit.ts. */
  writes: GroupCommit;
  metrics: Metrics;
  /** Where attachments' bytes are stored: DATA_DIR/attachments, or an S3-compatible store (outbound/files/). */
  files: FileStore;
  /** The OpenAPI document, built on its first request from every feature's openapi.ts. */
  openApiDocument: () => Promise<unknown>;
}
