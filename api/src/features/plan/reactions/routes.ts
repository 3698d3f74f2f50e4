import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { updateReactions } from './kinds.ts';
import { reactionResource } from './kind-routes.ts';

/** Reactions on project updates. */
export function reactionRoutes(plan: PlanRoutes): void {
  reactionResource(updateReactions)(plan);
}
