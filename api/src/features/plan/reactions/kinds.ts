import { visibleComment } from '../comments/service.ts';
import type { ReactableKind } from '../emoji/kinds.ts';
import { visibleUpdate } from '../updates/service.ts';

export const updateReactions: ReactableKind = {
  kind: 'project_update',
  path: '/v1/plan/projects/:project/updates/:update',
  tag: 'Plan: projects',
  noun: 'project update',
  async resolve(r, params) {
    const update = await visibleUpdate(r, params.project, params.update);
    return { uuid: update.uuid, board: null, project: update.project_uuid };
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
