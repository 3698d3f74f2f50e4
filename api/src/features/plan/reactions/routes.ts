import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { commentReactions, updateReactions } from './kinds.ts';
import { reactionResource } from './kind-routes.ts';

/** Reactions on project updates and on comments. */
export function reactionRoutes(plan: PlanRoutes): void {
  reactionResource(updateReactions)(plan);
  reactionResource(commentReactions)(plan);
}
