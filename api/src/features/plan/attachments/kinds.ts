import { forbidden, notFound } from '../../../lib/errors.ts';
import { visibleGoal, visibleProject } from '../frame/access.ts';
import type { PlanRead } from '../frame/context.ts';

/** The object attachments hang on, as the caller may see it. */
export interface AttachTarget {
  uuid: string;
  /** The board whose change stream records its attachments (tasks, comments), or null. */
  board: string | null;
  project: string | null;
  /** Whoever wrote the object, if it has an author (a comment, a project update): they may remove its files too. */
  author: string | null;
}

/**
 * A kind of object that takes attachments (the attachments' routes are declared per kind by resource.ts). A feature
 * whose objects take files declares its kind: where its objects are, how one is found for the caller (404 when
 * invisible), and who may attach to it. Tasks and comments declare theirs in their own folders.
 */
export interface AttachableKind {
  /** plan_attachments.object_kind: project, goal, project_update, task, comment. */
  kind: string;
  /** The object's path, its parameters as the router names them (`/v1/plan/projects/:project`). */
  path: string;
  /** The OpenAPI tag of its attachment routes, and what the summaries call one object. */
  tag: string;
  noun: string;
  /** Path parameters that take something else than a uuid (a task's KEY-n). */
  keyParams?: string[];
  /** The object the path's parameters name, or 404. */
  resolve(r: PlanRead, params: Record<string, string>): Promise<AttachTarget>;
  /** Refuses (403 with the kind's code) a caller who may see the object but not attach to it. */
  assertMayAttach?(r: PlanRead, target: AttachTarget): void;
  /** The table whose rows these objects are: the sweep removes the files of objects gone without a word (a cascade). */
  table: string;
}

export const projectAttachments: AttachableKind = {
  kind: 'project',
  path: '/v1/plan/projects/:project',
  tag: 'Plan: projects',
  noun: 'project',
  table: 'plan_projects',
  async resolve(r, params) {
    await visibleProject(r.db, r.actor, params.project);
    return { uuid: params.project, board: null, project: params.project, author: null };
  },
};

export const goalAttachments: AttachableKind = {
  kind: 'goal',
  path: '/v1/plan/goals/:goal',
  tag: 'Plan: goals',
  noun: 'goal',
  table: 'plan_goals',
  async resolve(r, params) {
    await visibleGoal(r.db, r.actor, params.goal);
    return { uuid: params.goal, board: null, project: null, author: null };
  },
};

export const updateAttachments: AttachableKind = {
  kind: 'project_update',
  path: '/v1/plan/projects/:project/updates/:update',
  tag: 'Plan: projects',
  noun: 'project update',
  table: 'plan_project_updates',
  async resolve(r, params) {
    await visibleProject(r.db, r.actor, params.project);
    const update = await r.db('plan_project_updates').where({ uuid: params.update }).first('project_uuid', 'author_uuid');
    if (!update || update.project_uuid !== params.project) throw notFound();
    return { uuid: params.update, board: null, project: params.project, author: update.author_uuid };
  },
  assertMayAttach(r, target) {
    if (target.author !== r.actor.user.uuid) throw forbidden('update_not_author', 'Only the author of a project update can attach files to it.');
  },
};
