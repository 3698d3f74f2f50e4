import type { Logger } from '../lib/logger.ts';
import type { InboundEmail } from './parse.ts';

/**
 * Where received e-mail goes. A handler returns true when it took the message (for example the agents'
 * inbox: a reply to `<agent-slug>.<org-slug>@<INBOUND_EMAIL_DOMAIN>` becomes an agent message); handlers are
 * asked in registration order and the first that takes the message wins. A feature declares its routes in its
 * feature.ts (`inbound: (deps) => ({ 'agent-inbox': handler })`); wiring.ts registers them.
 */
export type InboundHandler = (mail: InboundEmail) => Promise<boolean>;

export interface RouteOutcome {
  routed: boolean;
  route: string | null;
}

export class InboundRoutes {
  readonly #handlers: { name: string; handler: InboundHandler }[] = [];
  readonly #logger: Logger;
  constructor(logger: Logger) {
    this.#logger = logger;
  }

  register(name: string, handler: InboundHandler): void {
    this.#handlers.push({ name, handler });
  }

  async route(mail: InboundEmail): Promise<RouteOutcome> {
    for (const { name, handler } of this.#handlers) {
      if (await handler(mail)) {
        this.#logger.info({ route: name, to: mail.to, via: mail.via, message_id: mail.messageId }, 'inbound e-mail routed');
        return { routed: true, route: name };
      }
    }
    this.#logger.info({ to: mail.to, via: mail.via, message_id: mail.messageId }, 'inbound e-mail matched no route');
    return { routed: false, route: null };
  }
}
