import type { Feature } from '../../../http/feature.ts';
import { REQUEST_PATHS } from './requests.ts';
import { mattermostRoutes } from './routes.ts';

/** Mattermost's request URLs (the Answer button, the dialog, `/rollcall`): docs/chat.md, "Mattermost". */
export const chatMattermost: Feature = {
  name: 'chat/mattermost',
  routers: (deps) => [mattermostRoutes(deps)],
  openapi: () => import('./openapi.ts'),
  rawBodyPaths: Object.values(REQUEST_PATHS),
};
