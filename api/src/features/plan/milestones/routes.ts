import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentMilestone } from './presenter.ts';
import { createMilestone, getMilestone, listAllMilestones, listMilestones, setMilestoneState, updateMilestone } from './service.ts';
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
  // DELETE retires, as the DailyBot client expects: the milestone stays (its tasks keep pointing at it), and
  // POST …/restore/ brings it back. It answers the retired milestone, as a state's DELETE answers the archived state.
  r.write(
    { method: 'delete', path: `${base}/:milestone/`, summary: 'Retire (archive) a milestone, as POST …/archive/ does; tasks keep pointing at it; ?dry_run=true previews', response: 'PlanMilestone' },
    async (call) => presentMilestone(await setMilestoneState(call, call.params.project, call.params.milestone, 'archived')),
  );
  r.list(
    {
      path: '/v1/plan/milestones/',
      summary: 'Milestones of every project you see, by target date',
      item: 'PlanMilestone',
      query: [
        { name: 'project', description: 'only this project\'s' },
        { name: 'include_archived', description: 'true to list retired milestones too' },
      ],
    },
    async (call) => {
      const { count, rows } = await listAllMilestones(call, { includeArchived: call.query.flag('include_archived'), project: call.query.uuid('project') }, call.page);
      return { count, results: rows.map(presentMilestone) };
    },
  );
  const states = [
    ['complete', 'completed', 'Mark a milestone done (its tasks stay as they are); ?dry_run=true previews', true],
    ['reopen', 'reopened', 'Mark a completed milestone not done', false],
    ['archive', 'archived', 'Retire a milestone (tasks keep pointing at it); ?dry_run=true previews', true],
    ['restore', 'restored', 'Bring a retired milestone back', false],
  ] as const;
  for (const [verb, to, summary, destructive] of states) {
    r.write({ method: 'post', path: `${base}/:milestone/${verb}/`, summary, destructive, response: 'PlanMilestone' }, async (call) =>
      presentMilestone(await setMilestoneState(call, call.params.project, call.params.milestone, to)),
    );
  }
}
