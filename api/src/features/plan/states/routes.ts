import type { WriteCall } from '../../../http/plan/registrar.ts';
import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentState } from './presenter.ts';
import { archiveState, createState, getState, listStates, reorderStates, restoreState, updateState } from './service.ts';
import { archiveStateSchema, createStateSchema, reorderStatesSchema, updateStateSchema } from './schema.ts';
import type { ArchiveStateInput } from './schema.ts';

export function stateRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: states');
  const base = '/v1/plan/boards/:board/states';
  r.list(
    { path: `${base}/`, summary: 'Columns of a board in board order', item: 'PlanState', query: [{ name: 'include_archived', description: 'true to list archived states too (after the live ones)' }] },
    async (call) => {
      const { count, rows } = await listStates(call, call.params.board, call.query.flag('include_archived'), call.page);
      return { count, results: rows.map(presentState) };
    },
  );
  r.write({ method: 'post', structure: true, path: `${base}/`, summary: 'Add a state at the end of the board', scope: 'tasks:admin', body: createStateSchema, status: 201, response: 'PlanState' }, async (call) =>
    presentState(await createState(call, call.params.board, call.body)),
  );
  r.write(
    { method: 'post', structure: true, path: `${base}/reorder/`, summary: 'Set the order of the live states (400 states_reorder_invalid unless each is named once)', scope: 'tasks:admin', body: reorderStatesSchema, response: { type: 'array', items: { $ref: '#/components/schemas/PlanState' } } },
    async (call) => (await reorderStates(call, call.params.board, call.body.order)).map(presentState),
  );
  r.read({ path: `${base}/:state/`, summary: 'One state', response: 'PlanState' }, async (call) => presentState(await getState(call, call.params.board, call.params.state)));
  r.write(
    { method: 'patch', structure: true, path: `${base}/:state/`, summary: 'Rename, re-categorize (400 last_done_state), recolour, or make the default', scope: 'tasks:admin', body: updateStateSchema, response: 'PlanState' },
    async (call) => presentState(await updateState(call, call.params.board, call.params.state, call.body)),
  );
  const archive = async (call: WriteCall<ArchiveStateInput>, migrateTo: string | null | undefined) => {
    const { state, moved_tasks } = await archiveState(call, call.params.board, call.params.state, migrateTo);
    return { ...presentState(state), moved_tasks };
  };
  r.write(
    {
      method: 'post', structure: true,
      path: `${base}/:state/archive/`,
      summary: 'Archive a state; its live tasks move to migrate_to (409 state_in_use without it)',
      scope: 'tasks:admin',
      destructive: true,
      body: archiveStateSchema,
      response: 'PlanState',
    },
    (call) => archive(call, call.body.migrate_to),
  );
  r.write(
    {
      method: 'delete', structure: true, scope: 'tasks:admin',
      path: `${base}/:state/`,
      summary: 'Delete a state: archives it (states are kept for history); migrate_to in the body or the query',
      body: archiveStateSchema,
      response: 'PlanState',
      query: [{ name: 'migrate_to', description: 'state uuid to move the live tasks to' }],
    },
    (call) => archive(call, call.body.migrate_to ?? call.query.uuid('migrate_to')),
  );
  r.write({ method: 'post', structure: true, path: `${base}/:state/restore/`, summary: 'Restore an archived state at the end of the board', scope: 'tasks:admin', response: 'PlanState' }, async (call) =>
    presentState(await restoreState(call, call.params.board, call.params.state)),
  );
}
