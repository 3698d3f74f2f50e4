import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentUpdate } from './presenter.ts';
import { createUpdate, deleteUpdate, editUpdate, getUpdate, listUpdates } from './service.ts';
import { createUpdateSchema, editUpdateSchema } from './schema.ts';

export function updateRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: projects');
  const base = '/v1/plan/projects/:project/updates';
  r.list({ path: `${base}/`, summary: 'Updates posted on a project, newest first', item: 'PlanProjectUpdate' }, async (call) => {
    const { count, views } = await listUpdates(call, call.params.project, call.page);
    return { count, results: views.map((v) => presentUpdate(v.row, v.author)) };
  });
  r.write(
    { method: 'post', path: `${base}/`, summary: 'Post an update (at most 20,000 characters: 400 update_body_too_long)', body: createUpdateSchema, status: 201, response: 'PlanProjectUpdate' },
    async (call) => {
      const view = await createUpdate(call, call.params.project, call.body);
      return presentUpdate(view.row, view.author);
    },
  );
  r.read({ path: `${base}/:update/`, summary: 'One project update', response: 'PlanProjectUpdate' }, async (call) => {
    const view = await getUpdate(call, call.params.project, call.params.update);
    return presentUpdate(view.row, view.author);
  });
  r.write({ method: 'patch', path: `${base}/:update/`, summary: 'Edit an update (its author only: 403 update_not_author)', body: editUpdateSchema, response: 'PlanProjectUpdate' }, async (call) => {
    const view = await editUpdate(call, call.params.project, call.params.update, call.body);
    return presentUpdate(view.row, view.author);
  });
  r.write({ method: 'delete', path: `${base}/:update/`, summary: 'Delete an update (its author or an organization admin)', status: 204 }, (call) =>
    deleteUpdate(call, call.params.project, call.params.update),
  );
}
