import type { PlanRead } from '../frame/context.ts';

/** The object reactions are on, as the caller may see it, and where its changes are recorded. */
export interface ReactionTarget {
  uuid: string;
  board: string | null;
  project: string | null;
}

/**
 * A kind of object people react to (project updates here; comments declare theirs beside them): where its objects
 * are, and how one is found for the caller (404 when invisible).
 */
export interface ReactableKind {
  /** plan_reactions.object_kind */
  kind: string;
  path: string;
  tag: string;
  noun: string;
  keyParams?: string[];
  resolve(r: PlanRead, params: Record<string, string>): Promise<ReactionTarget>;
}
