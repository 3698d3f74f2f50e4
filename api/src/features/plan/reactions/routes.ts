import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { updateReactions } from './kinds.ts';
import { reactionResource } from './resource.ts';

/** Reactions on project updates. */
export function reactionRoutes(plan: PlanRoutes): void {
  reactionResource(updateReactions)(plan);
}
