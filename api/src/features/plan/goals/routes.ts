import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentProject } from '../projects/presenter.ts';
import { linkGoalProject, listGoalProjects, unlinkGoalProject } from '../projects/service.ts';
import { presentGoal } from './presenter.ts';
import { archiveGoal, createGoal, deleteGoal, getGoal, listGoals, restoreGoal, updateGoal } from './service.ts';
import { createGoalSchema, linkProjectSchema, updateGoalSchema } from './schema.ts';

const ORDERING = { name: 'name_key', created_at: 'created_at', updated_at: 'updated_at' };

export function goalRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: goals');
  r.list(
    {
      path: '/v1/plan/goals/',
      summary: 'Goals of the organization',
      item: 'PlanGoal',
      query: [
        { name: 'include_archived', description: 'true to include archived goals' },
        { name: 'search', description: 'name contains (2–256 characters)' },
        { name: 'ordering', description: 'name, created_at or updated_at; prefix - for descending' },
      ],
    },
    async (call) => {
      const filters = { includeArchived: call.query.flag('include_archived'), search: call.query.search(), ordering: call.query.ordering(ORDERING, { column: 'created_at', order: 'asc' }) };
      const { count, rows } = await listGoals(call, filters, call.page);
      return { count, results: rows.map(presentGoal) };
    },
  );
  r.write({ method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/goals/', summary: 'Create a goal (409 goal_name_conflict against live goals)', body: createGoalSchema, status: 201, response: 'PlanGoal' }, async (call) =>
    presentGoal(await createGoal(call, call.body)),
  );
  r.read({ path: '/v1/plan/goals/:goal/', summary: 'One goal', response: 'PlanGoal' }, async (call) => presentGoal(await getGoal(call, call.params.goal)));
  r.write({ method: 'patch', structure: true, scope: 'tasks:admin', path: '/v1/plan/goals/:goal/', summary: 'Rename or describe a goal', body: updateGoalSchema, response: 'PlanGoal' }, async (call) =>
    presentGoal(await updateGoal(call, call.params.goal, call.body)),
  );
  r.write({ method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/goals/:goal/archive/', summary: 'Archive a goal', destructive: true, response: 'PlanGoal' }, async (call) =>
    presentGoal(await archiveGoal(call, call.params.goal)),
  );
  r.write({ method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/goals/:goal/restore/', summary: 'Restore an archived goal (its name must be free among live goals)', response: 'PlanGoal' }, async (call) =>
    presentGoal(await restoreGoal(call, call.params.goal)),
  );
  r.write({ method: 'delete', structure: true, scope: 'tasks:admin', path: '/v1/plan/goals/:goal/', summary: 'Delete a goal; its projects stay, unlinked', status: 204 }, (call) => deleteGoal(call, call.params.goal));

  r.list({ path: '/v1/plan/goals/:goal/projects/', summary: 'Projects linked to a goal (those you can see)', item: 'PlanProject' }, async (call) => {
    const { count, rows } = await listGoalProjects(call, call.params.goal, call.page);
    return { count, results: rows.map(presentProject) };
  });
  r.write({ method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/goals/:goal/projects/', summary: 'Link a project to the goal (a project has one goal)', body: linkProjectSchema, response: 'PlanProject' }, async (call) =>
    presentProject(await linkGoalProject(call, call.params.goal, call.body.project)),
  );
  r.write({ method: 'delete', structure: true, scope: 'tasks:admin', path: '/v1/plan/goals/:goal/projects/:project/', summary: 'Unlink a project from the goal', status: 204 }, (call) =>
    unlinkGoalProject(call, call.params.goal, call.params.project),
  );
}
