import type { Feature } from '../../../http/feature.ts';
import { EVENTS_PATH } from './requests.ts';
import { googleChatRoutes } from './routes.ts';

/** The Google Chat app's HTTP endpoint (the answer dialog, the conversation): docs/chat.md. */
export const chatGoogle: Feature = {
  name: 'chat/google-chat',
  routers: (deps) => [googleChatRoutes(deps)],
  openapi: () => import('./openapi.ts'),
  rawBodyPaths: [EVENTS_PATH],
};
