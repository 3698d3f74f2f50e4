import { forbidden } from '../../../lib/errors.ts';
import type { ReactableKind } from '../emoji/kinds.ts';
import type { AttachableKind } from '../files/kinds.ts';
import { visibleComment } from './service.ts';

const COMMENT = '/v1/plan/tasks/:task/comments/:comment';

/** Files on a comment: one multipart request, by the comment's author only (403 comment_not_author). */
export const commentAttachments: AttachableKind = {
  kind: 'comment',
  path: COMMENT,
  tag: 'Plan: comments',
  noun: 'comment',
  keyParams: ['task'],
  table: 'plan_comments',
  async resolve(r, params) {
    const { task, comment } = await visibleComment(r, params.task, params.comment);
    return { uuid: comment.uuid, board: task.board_uuid, project: null, author: comment.author_uuid };
  },
  assertMayAttach(r, target) {
    if (target.author !== r.actor.user.uuid) throw forbidden('comment_not_author', 'Only the author of a comment can attach files to it.');
  },
};

export const commentReactions: ReactableKind = {
  kind: 'comment',
  path: COMMENT,
  tag: 'Plan: comments',
  noun: 'comment',
  keyParams: ['task'],
  async resolve(r, params) {
    const { task, comment } = await visibleComment(r, params.task, params.comment);
    return { uuid: comment.uuid, board: task.board_uuid, project: null };
  },
};
