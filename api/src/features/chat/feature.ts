import type { Feature } from '../../http/feature.ts';
import { pruneNonces } from '../chat-platform/nonces.ts';
import { pruneLinksAndDrafts } from '../chat-platform/linked-accounts.ts';
import { PLATFORMS } from './platforms.ts';
import { chatRoutes } from './routes.ts';
import { chatSender } from './sender.ts';

/**
 * Chat platforms (CONTRACT §10): send-message, conversations, report channels, the `chat` delivery channel (each
 * platform's `send`, platforms.ts) and the connection's state for the admin screen (GET /v1/integrations/).
 */
export const chat: Feature = {
  name: 'chat',
  routers: (deps, mw) => [chatRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  delivery: (deps) => ({ senders: { chat: chatSender(deps.db, deps.secretBox, deps.outbound.http, deps.config, PLATFORMS) } }),
  jobs: [
    { name: 'prune-chat-request-nonces', schedule: '41 * * * *', run: (deps) => pruneNonces(deps.db, deps.clock.now()) },
    { name: 'prune-chat-links-and-drafts', schedule: '43 * * * *', run: (deps) => pruneLinksAndDrafts(deps.db, deps.clock.now()) },
  ],
};
