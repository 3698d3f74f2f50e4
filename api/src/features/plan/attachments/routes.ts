import Router from '@koa/router';
import type { Context } from 'koa';
import type { Deps } from '../../../http/deps.ts';
import { limitedBody } from '../../../http/plan/files.ts';
import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { queryText } from '../../../http/query.ts';
import { notFound } from '../../../lib/errors.ts';
import { isUuid } from '../../../lib/ids.ts';
import { attachmentResource } from './kind-routes.ts';
import { boardAttachments, commentAttachments, goalAttachments, milestoneAttachments, projectAttachments, taskAttachments, updateAttachments } from './kinds.ts';
import { presentUpload } from '../files/presenter.ts';
import { receivePut, resolveAttachments, tooLarge } from '../files/service.ts';

/**
 * Goals, projects, milestones, boards, project updates and comments take files in one multipart request each;
 * tasks by presign → PUT → confirm (up to 25 MiB), or in one multipart request (up to 5 MiB) as the DailyBot client sends them.
 */
export function attachmentRoutes(plan: PlanRoutes): void {
  for (const kind of [projectAttachments, goalAttachments, updateAttachments, commentAttachments, milestoneAttachments, boardAttachments]) {
    attachmentResource(kind, { multipart: true })(plan);
  }
  attachmentResource(taskAttachments, { presign: true, multipart: true })(plan);
  plan.tagged('Plan: tasks').read(
    {
      path: '/v1/plan/attachments/resolve/', summary: 'The current address of attachments by uuid (attachment:<uuid> references); those you cannot see are in missing', response: 'PlanResolvedAttachments',
      query: [{ name: 'ids', description: 'attachment uuids, comma-separated or repeated (at most 100)' }],
    },
    (call) => resolveAttachments(call, call.query.uuids('ids', 100) ?? [], call.baseUrl),
  );
}

/** Where presign sends a task file's bytes (PUT or POST): the task's own content path, the one the DailyBot client accepts. */
export const UPLOAD_CONTENT_PATH = '/v1/plan/tasks/:task/attachments/:attachment/content/';

/**
 * `PUT /v1/uploads/{attachment}/?token=`: where a presigned upload's bytes go. The token in the URL is the
 * permission (no credential: the URL may be handed to any HTTP client), good until it expires or the upload is
 * confirmed; anything else answers 404. The body is streamed to the store.
 */
export function uploadRoutes(deps: Deps): Router {
  const router = new Router();
  // `/v1/uploads/{a}/` was the first form of upload_url; presign now answers the task's content path, which the
  // DailyBot client accepts (same token rule; the task in the path is not consulted: the token names the upload).
  const receive = async (ctx: Context) => {
    const token = queryText(ctx, 'token') ?? '';
    if (!isUuid(ctx.params.attachment) || token === '') throw notFound();
    const length = ctx.get('content-length') === '' ? null : Number(ctx.get('content-length'));
    const row = await receivePut(
      deps.db,
      deps.files,
      { uuid: ctx.params.attachment.toLowerCase(), token, length: Number.isFinite(length) ? length : null, body: (max) => limitedBody(ctx.req, max, () => tooLarge(max)) },
      deps.clock.now(),
    );
    ctx.body = presentUpload(row);
  };
  router.put('/v1/uploads/:attachment/', receive);
  router.register(UPLOAD_CONTENT_PATH, ['PUT', 'POST'], receive);
  return router;
}
