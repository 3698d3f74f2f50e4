import type { Config } from '../../lib/config.ts';
import type { Db } from '../../db/connection.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';

/** What every chat platform's request handlers need of the app; each platform's routes build it once. */
export interface ChatRequestDeps {
  db: Db;
  box: SecretBox;
  http: OutboundHttp;
  config: Config;
  logger: Logger;
  now: () => Date;
  /** Wakes the delivery worker after a commit that enqueued. */
  kick: () => void;
}

/** The parts of the app's dependencies (http/deps.ts `Deps`) the handlers take, named here so this stays below http/. */
interface AppParts {
  db: Db;
  secretBox: SecretBox;
  outbound: { http: OutboundHttp };
  config: Config;
  logger: Logger;
  clock: { now(): Date };
  delivery: { kick(): void };
}

/** Built once by each platform's routes from the app's dependencies. */
export function chatRequestDeps(deps: AppParts): ChatRequestDeps {
  return { db: deps.db, box: deps.secretBox, http: deps.outbound.http, config: deps.config, logger: deps.logger, now: () => deps.clock.now(), kick: () => deps.delivery.kick() };
}
