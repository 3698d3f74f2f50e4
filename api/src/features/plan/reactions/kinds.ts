import { notFound } from '../../../lib/errors.ts';
import { visibleProject } from '../frame/access.ts';
import { visibleComment } from '../comments/service.ts';
import type { ReactableKind } from '../emoji/kinds.ts';

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

export const commentReactions: ReactableKind = {
  kind: 'comment',
  path: '/v1/plan/tasks/:task/comments/:comment',
  tag: 'Plan: comments',
  noun: 'comment',
  keyParams: ['task'],
  async resolve(r, params) {
    const { task, comment } = await visibleComment(r, params.task, params.comment);
    return { uuid: comment.uuid, board: task.board_uuid, project: null };
  },
};
