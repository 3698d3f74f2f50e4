import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../logger.ts';
import { loadSecretBox } from './secret-box.ts';
import type { SecretBox } from './secret-box.ts';
import { OutboundHttp } from './outbound-http.ts';
import type { Resolver } from './address-policy.ts';
import { DeliveryWorker } from './worker.ts';
import { logHeldEmails } from './service.ts';
import { InboundRoutes } from '../inbound/routes-registry.ts';
import { emailSender, smtpMailer } from '../email/mailer.ts';
import type { Mailer } from '../email/mailer.ts';
import { agentWebhookSender, organizationWebhookSender } from '../webhooks/sender.ts';
import { disableSubscription, dispatchEvents } from '../webhooks/service.ts';
import { chatSender } from '../chat/sender.ts';
import { workflowHttpSender } from '../workflows/sender.ts';

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

export interface DeliveryServices {
  secretBox: SecretBox;
  mailer: Mailer | null;
  delivery: DeliveryWorker;
  inboundRoutes: InboundRoutes;
  outbound: { http: OutboundHttp; resolve?: Resolver };
}

export function buildDeliveryServices(
  base: { db: Db; clock: Clock; config: Config; logger: Logger },
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
  });
  delivery.beforeRound(() => dispatchEvents(db, clock.now()));
  if (!mailer) delivery.beforeRound(() => logHeldEmails(db, logger, clock.now()));
  if (mailer) delivery.registerSender('email', emailSender(mailer));
  delivery.registerSender('webhook', organizationWebhookSender(db, secretBox, http));
  delivery.registerSender('agent_webhook', agentWebhookSender(secretBox, http));
  delivery.registerSender('chat', chatSender(db, secretBox, http, config));
  delivery.registerSender('http_request', workflowHttpSender(secretBox, http));
  delivery.onGone('webhook', async (trx, row, now) => {
    if (row.ref_uuid) await disableSubscription(trx, row.ref_uuid, now);
  });
  return { secretBox, mailer, delivery, inboundRoutes: new InboundRoutes(logger), outbound: { http, resolve: options.resolve } };
}
