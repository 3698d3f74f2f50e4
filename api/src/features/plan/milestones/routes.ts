import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentMilestone } from './presenter.ts';
import { createMilestone, deleteMilestone, getMilestone, listMilestones, updateMilestone } from './service.ts';
import { createMilestoneSchema, updateMilestoneSchema } from './schema.ts';

export function milestoneRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: projects');
  const base = '/v1/plan/projects/:project/milestones';
  r.list({ path: `${base}/`, summary: 'Milestones of a project, by target date', item: 'PlanMilestone' }, async (call) => {
    const { count, rows } = await listMilestones(call, call.params.project, call.page);
    return { count, results: rows.map(presentMilestone) };
  });
  r.write({ method: 'post', path: `${base}/`, summary: 'Add a milestone (project managers)', body: createMilestoneSchema, status: 201, response: 'PlanMilestone' }, async (call) =>
    presentMilestone(await createMilestone(call, call.params.project, call.body)),
  );
  r.read({ path: `${base}/:milestone/`, summary: 'One milestone', response: 'PlanMilestone' }, async (call) =>
    presentMilestone(await getMilestone(call, call.params.project, call.params.milestone)),
  );
  r.write({ method: 'patch', path: `${base}/:milestone/`, summary: 'Update a milestone (project managers)', body: updateMilestoneSchema, response: 'PlanMilestone' }, async (call) =>
    presentMilestone(await updateMilestone(call, call.params.project, call.params.milestone, call.body)),
  );
  r.write({ method: 'delete', path: `${base}/:milestone/`, summary: 'Delete a milestone; its tasks keep going without one', status: 204 }, (call) =>
    deleteMilestone(call, call.params.project, call.params.milestone),
  );
}
