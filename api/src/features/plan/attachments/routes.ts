import Router from '@koa/router';
import type { Deps } from '../../../http/deps.ts';
import { limitedBody } from '../../../http/plan/files.ts';
import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { queryText } from '../../../http/query.ts';
import { notFound } from '../../../lib/errors.ts';
import { isUuid } from '../../../lib/ids.ts';
import { attachmentResource } from './kind-routes.ts';
import { commentAttachments, goalAttachments, projectAttachments, taskAttachments, updateAttachments } from './kinds.ts';
import { presentUpload } from '../files/presenter.ts';
import { receivePut, tooLarge } from '../files/service.ts';

/** Goals, projects, project updates and comments take files in one multipart request each; tasks by presign → PUT → confirm. */
export function attachmentRoutes(plan: PlanRoutes): void {
  for (const kind of [projectAttachments, goalAttachments, updateAttachments, commentAttachments]) attachmentResource(kind, { multipart: true })(plan);
  attachmentResource(taskAttachments, { presign: true })(plan);
}

/**
 * `PUT /v1/uploads/{attachment}/?token=`: where a presigned upload's bytes go. The token in the URL is the
 * permission (no credential: the URL may be handed to any HTTP client), good until it expires or the upload is
 * confirmed; anything else answers 404. The body is streamed to the store.
 */
export function uploadRoutes(deps: Deps): Router {
  const router = new Router();
  router.put('/v1/uploads/:attachment/', async (ctx) => {
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
  });
  return router;
}
