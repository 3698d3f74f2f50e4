import type { Feature } from '../../../http/feature.ts';
import { MESSAGES_PATH } from './requests.ts';
import { teamsRoutes } from './routes.ts';

/** The Microsoft Teams bot's messaging endpoint (cards saved, the conversation): docs/chat.md. */
export const chatTeams: Feature = {
  name: 'chat/microsoft-teams',
  routers: (deps) => [teamsRoutes(deps)],
  openapi: () => import('./openapi.ts'),
  rawBodyPaths: [MESSAGES_PATH],
};
