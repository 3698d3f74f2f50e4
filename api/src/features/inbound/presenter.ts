import type { InboundEmail } from '../../inbound/parse.ts';
import type { RouteOutcome } from '../../inbound/registry.ts';

/** POST /v1/inbound-email/: accepted, and where it went (no route: nobody took it; the provider need not retry). */
export function presentInboundOutcome(mail: InboundEmail, outcome: RouteOutcome) {
  return { accepted: true, routed: outcome.routed, route: outcome.route, from: mail.from, subject: mail.subject, message_id: mail.messageId };
}
