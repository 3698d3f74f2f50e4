import type { Feature } from '../../http/feature.ts';
import { apiKeyRoutes } from './routes.ts';

/** API keys (spec "API key", "Roles", "Secret lifecycle"). */
export const apiKeys: Feature = {
  name: 'api-keys',
  routers: (deps, mw) => [apiKeyRoutes(deps, mw)],
  openapi: () => import('./openapi.ts'),
};
