import type { Feature } from '../../http/feature.ts';
import { chatRoutes } from './routes.ts';
import { chatSender } from './sender.ts';

/** Chat platforms (CONTRACT §10): send-message, conversations, report channels and the `chat` delivery channel. */
export const chat: Feature = {
  name: 'chat',
  routers: (deps, mw) => [chatRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  delivery: (deps) => ({ senders: { chat: chatSender(deps.db, deps.secretBox, deps.outbound.http, deps.config) } }),
};
