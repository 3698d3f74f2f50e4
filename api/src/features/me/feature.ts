import type { Feature } from '../../http/feature.ts';
import { meRoutes } from './routes.ts';
import { chatAccountRoutes } from './chat-accounts-routes.ts';

/** GET /v1/me/: who the credential acts as; /v1/me/chat-accounts/: the chat accounts they linked (Discord). */
export const me: Feature = {
  name: 'me',
  routers: (deps, mw) => [meRoutes(deps, mw), chatAccountRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
