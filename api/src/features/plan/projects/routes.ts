import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { containerFilterDocs } from '../../../http/plan/openapi.ts';
import { presentProject } from './presenter.ts';
import { presentUpdate } from '../updates/presenter.ts';
import { listAllUpdates } from '../updates/service.ts';
import { archiveProject, boardCounts, createProject, reorderProject, deleteProject, getProject, listProjects, restoreProject, updateProject } from './service.ts';
import { createProjectSchema, reorderProjectSchema, updateProjectSchema } from './schema.ts';

const ORDERING = { position: 'position', name: 'name_key', created_at: 'created_at', updated_at: 'updated_at' };

export function projectRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: projects');
  // Before `projects/:project/`, which would take `updates` for a project id.
  r.list({ path: '/v1/plan/projects/updates/', summary: 'Updates of every project you see (archived projects left out), newest first', item: 'PlanProjectUpdate' }, async (call) => {
    const { count, views } = await listAllUpdates(call, call.page);
    return { count, results: views.map((v) => presentUpdate(v.row, v.author)) };
  });
  r.list(
    {
      path: '/v1/plan/projects/',
      summary: 'Projects you can see',
      item: 'PlanProject',
      personQuery: { member: 'me' },
      query: containerFilterDocs('projects', 'name', ORDERING, [{ name: 'goal', description: 'goal uuid' }]),
    },
    async (call) => {
      const filters = { ...call.query.containerFilters(ORDERING), goal: call.query.uuid('goal') };
      const { count, rows } = await listProjects(call, filters, call.page);
      const boards = await boardCounts(call, rows.map((row) => row.uuid));
      return { count, results: rows.map((row) => ({ ...presentProject(row), board_count: boards.get(row.uuid) ?? 0 })) };
    },
  );
  r.write(
    { method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/projects/', summary: 'Create a project; you become its manager (402 task_projects_limit_reached on the plan ceiling)', body: createProjectSchema, status: 201, response: 'PlanProject' },
    async (call) => presentProject(await createProject(call, call.body)),
  );
  r.read({ path: '/v1/plan/projects/:project/', summary: 'One project (board_count: its live boards you see)', response: 'PlanProject' }, async (call) => {
    const project = await getProject(call, call.params.project);
    return { ...presentProject(project), board_count: (await boardCounts(call, [project.uuid])).get(project.uuid) ?? 0 };
  });
  r.write({ method: 'patch', structure: true, scope: 'tasks:admin', path: '/v1/plan/projects/:project/', summary: 'Update a project (its managers)', body: updateProjectSchema, response: 'PlanProject' }, async (call) =>
    presentProject(await updateProject(call, call.params.project, call.body)),
  );
  r.write(
    {
      method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/projects/:project/reorder/', body: reorderProjectSchema, response: 'PlanProject',
      summary: 'Place a project before or after another in the organization\'s order (neither: last; both: 400 reorder_anchor_invalid)',
    },
    async (call) => presentProject(await reorderProject(call, call.params.project, call.body)),
  );
  r.write({ method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/projects/:project/archive/', summary: 'Archive a project (its name stays taken)', destructive: true, response: 'PlanProject' }, async (call) =>
    presentProject(await archiveProject(call, call.params.project)),
  );
  r.write({ method: 'post', structure: true, scope: 'tasks:admin', path: '/v1/plan/projects/:project/restore/', summary: 'Restore an archived project (counts against the plan ceiling)', response: 'PlanProject' }, async (call) =>
    presentProject(await restoreProject(call, call.params.project)),
  );
  r.write({ method: 'delete', structure: true, scope: 'tasks:admin', path: '/v1/plan/projects/:project/', summary: 'Delete a project with its members, milestones and updates; boards stay', status: 204 }, (call) =>
    deleteProject(call, call.params.project),
  );
}
