import { notFound } from '../../../lib/errors.ts';
import { visibleProject } from '../frame/access.ts';
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

export const updateReactions: ReactableKind = {
  kind: 'project_update',
  path: '/v1/plan/projects/:project/updates/:update',
  tag: 'Plan: projects',
  noun: 'project update',
  async resolve(r, params) {
    await visibleProject(r.db, r.actor, params.project);
    const update = await r.db('plan_project_updates').where({ uuid: params.update }).first('project_uuid');
    if (!update || update.project_uuid !== params.project) throw notFound();
    return { uuid: params.update, board: null, project: params.project };
  },
};
