import type { Db } from './db/connection.ts';
import type { Notifications } from './db/notifications.ts';
import type { Deps, DeliveryServices } from './http/deps.ts';
import type { Feature } from './http/feature.ts';
import { InboundRoutes } from './inbound/registry.ts';
import type { Clock } from './lib/clock.ts';
import type { Config } from './lib/config.ts';
import type { Logger } from './lib/logger.ts';
import type { Resolver } from './outbound/address-policy.ts';
import { emailSender, logHeldEmails, mailDomain, smtpMailer } from './outbound/mailer.ts';
import type { Mailer } from './outbound/mailer.ts';
import { OutboundHttp } from './outbound/outbound-http.ts';
import { loadSecretBox } from './outbound/encryption-key.ts';
import { DeliveryWorker } from './outbound/worker.ts';

/** Test and benchmark seams for the delivery services; production passes none. */
export interface DeliveryOptions {
  /** A mailer instead of SMTP_URL (null: hold e-mail in the outbox). */
  mailer?: Mailer | null;
  /** Extra CA certificates trusted for outbound HTTPS (tests' self-signed receivers). */
  ca?: string | Buffer;
  /** DNS resolution for the address checks (tests play rebinding resolvers). */
  resolve?: Resolver;
  random?: () => number;
}

/**
 * The services that carry messages in and out: the secret box, SMTP (or none), outbound HTTP with the address
 * policy, the delivery worker, the inbound mail routes. E-mail is the one channel of its own: several features
 * send it, and SMTP_URL decides whether it goes out or is held in the outbox (logged once, listed for admins).
 */
export function buildDeliveryServices(
  base: { db: Db; clock: Clock; config: Config; logger: Logger; notifications?: Notifications },
  options: DeliveryOptions = {},
): DeliveryServices {
  const { db, clock, config, logger } = base;
  const secretBox = loadSecretBox(config);
  const mailer = options.mailer !== undefined ? options.mailer : config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom, config.delivery.timeoutMs) : null;
  const http = new OutboundHttp({
    allowPrivate: config.allowPrivateWebhooks,
    timeoutMs: config.delivery.timeoutMs,
    ca: options.ca,
    resolve: options.resolve,
    connections: Math.max(8, config.delivery.concurrency),
  });
  const delivery = new DeliveryWorker({
    db,
    clock,
    logger,
    concurrency: config.delivery.concurrency,
    retryScheduleMs: config.delivery.retryScheduleMs,
    pollMs: config.delivery.pollMs,
    held: () => (mailer ? [] : ['email']),
    random: options.random,
    // Two request timeouts, at least 10 s: renewed every quarter of it while sending, it survives a process
    // that stalls for seconds (loading a module, a busy machine); a dead process's rows move on soon after.
    leaseMs: Math.max(10_000, 2 * config.delivery.timeoutMs),
    notifications: base.notifications,
  });
  if (mailer) delivery.registerSender('email', emailSender(mailer, secretBox, mailDomain(config.mailFrom)));
  else delivery.beforeRound(() => logHeldEmails(db, logger, clock.now()));
  const llm = new OutboundHttp({ allowPrivate: true, operatorConfigured: true, timeoutMs: config.llm.timeoutMs, resolve: options.resolve, connections: 8 });
  return { secretBox, mailer, delivery, inboundRoutes: new InboundRoutes(logger), outbound: { http, llm, resolve: options.resolve } };
}

/** Each feature's delivery part (senders, hooks, work before a round) and inbound mail routes, in the list's order. */
export function connectFeatures(deps: Deps, features: Feature[]): void {
  for (const feature of features) {
    if (feature.delivery) deps.delivery.register(feature.delivery(deps));
    for (const [route, handler] of Object.entries(feature.inbound?.(deps) ?? {})) deps.inboundRoutes.register(route, handler);
  }
}
