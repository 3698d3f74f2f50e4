import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { createCommentSchema, editCommentSchema } from './schema.ts';
import { createComment, deleteComment, editComment, getComment, listComments } from './service.ts';

const BASE = '/v1/plan/tasks/:task/comments';
const keyParams = ['task'];

/** Comments on a task (their reactions and files are mounted by reactions/ and attachments/). */
export function commentRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: comments');
  r.list({ path: `${BASE}/`, summary: 'Comments on a task, oldest first (replies name their parent)', item: 'PlanComment', keyParams }, (call) =>
    listComments(call, call.params.task, call.page),
  );
  r.write(
    {
      method: 'post', path: `${BASE}/`, body: createCommentSchema, status: 201, response: 'PlanComment', keyParams,
      summary: 'Comment, or reply with parent (one level: 400 invalid_relation); at most 10,000 characters (comment_body_too_long); <@user-uuid> mentions notify',
    },
    (call) => createComment(call, call.params.task, call.body),
  );
  r.read({ path: `${BASE}/:comment/`, summary: 'One comment', response: 'PlanComment', keyParams }, (call) => getComment(call, call.params.task, call.params.comment));
  r.write(
    { method: 'patch', path: `${BASE}/:comment/`, body: editCommentSchema, response: 'PlanComment', keyParams, summary: 'Edit a comment (its author only: 403 comment_not_author); people newly mentioned are notified' },
    (call) => editComment(call, call.params.task, call.params.comment, call.body),
  );
  r.write({ method: 'delete', path: `${BASE}/:comment/`, status: 204, keyParams, summary: 'Delete a comment with its replies, files and reactions (its author only: 403 comment_not_author)' }, (call) =>
    deleteComment(call, call.params.task, call.params.comment),
  );
}
