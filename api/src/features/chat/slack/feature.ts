import type { Feature } from '../../../http/feature.ts';
import { REQUEST_PATHS } from './requests.ts';
import { slackRoutes } from './routes.ts';

/** Slack's request URLs (answers, buttons, `/rollcall`, the App Home) and its app manifest: docs/chat.md. */
export const chatSlack: Feature = {
  name: 'chat/slack',
  routers: (deps, mw) => [slackRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
  rawBodyPaths: Object.values(REQUEST_PATHS),
};
