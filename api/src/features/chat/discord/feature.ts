import type { Feature } from '../../../http/feature.ts';
import { INTERACTIONS_PATH } from './requests.ts';
import { discordRoutes } from './routes.ts';

/** Discord's interactions endpoint (the `/rollcall` command, buttons, forms): docs/chat.md, "Discord". */
export const chatDiscord: Feature = {
  name: 'chat/discord',
  routers: (deps) => [discordRoutes(deps)],
  openapi: () => import('./openapi.ts'),
  rawBodyPaths: [INTERACTIONS_PATH],
};
