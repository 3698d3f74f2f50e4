import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { entityTags } from '../../../lib/etags.ts';
import { presentView } from './presenter.ts';
import { createViewSchema, replaceViewSchema, savedViewItemSchema, updateViewSchema } from './schema.ts';
import type { SavedViewItem } from './schema.ts';
import { saveViews } from './save.ts';
import { PERSONAL_VIEW_LIMIT, changeView, createView, deleteView, getView, listViews, viewEtag } from './service.ts';
import type { ViewContainer } from './service.ts';

const IF_MATCH = 'Needs If-Match with the ETag of the last read (428 precondition_required without it, 412 precondition_failed when stale).';
const IF_MATCH_OPTIONAL = 'If-Match, when sent, must be the ETag of the last read (412 precondition_failed when stale).';

export function viewRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: saved views');
  // The workspace's own views (the DailyBot client's `plan views workspace`): before `views/:view/`, which would take `workspace` for an id.
  const workspace: ViewContainer = { kind: 'workspace' };
  r.list(
    { path: '/v1/plan/views/workspace/', person: true, summary: 'Workspace views (of no board or project): your own, and the ones others shared (answers an ETag of your own)', item: 'PlanView' },
    async (call) => {
      const { count, rows, etag } = await listViews(call, workspace, call.page);
      call.header('ETag', etag);
      return { count, results: rows.map(presentView) };
    },
  );
  r.write(
    {
      method: 'put', path: '/v1/plan/views/workspace/', person: true, items: { schema: savedViewItemSchema, max: PERSONAL_VIEW_LIMIT * 2 }, response: { type: 'array', items: { $ref: '#/components/schemas/PlanView' } },
      summary: 'Replace all your own workspace views (personal and shared) with the array sent (an item with a uuid changes that view; one without is new; the others are deleted)',
      description: `${IF_MATCH} The ETag of the list (GET), which covers your own workspace views.`,
    },
    async (call) => {
      const { rows, etag } = await saveViews(call, workspace, call.items as SavedViewItem[], entityTags(call.headers['if-match']));
      call.header('ETag', etag);
      return rows.map(presentView);
    },
  );
  for (const kind of ['board', 'project'] as const) {
    const path = `/v1/plan/${kind}s/:${kind}/views/`;
    const container = (params: Record<string, string>): ViewContainer => ({ kind, uuid: params[kind] });
    r.list(
      { path, summary: `Saved views of a ${kind} you see: its default, its shared views and your personal ones (answers an ETag)`, item: 'PlanView' },
      async (call) => {
        const { count, rows, etag } = await listViews(call, container(call.params), call.page);
        call.header('ETag', etag);
        return { count, results: rows.map(presentView) };
      },
    );
    r.write(
      {
        method: 'put', path, items: { schema: savedViewItemSchema, max: PERSONAL_VIEW_LIMIT }, response: { type: 'array', items: { $ref: '#/components/schemas/PlanView' } },
        summary: `Replace all your personal views of a ${kind} with the array sent (an item with a uuid changes that view; one without is new; the others are deleted)`,
        description: `${IF_MATCH} The ETag of the list (GET).`,
      },
      async (call) => {
        const { rows, etag } = await saveViews(call, container(call.params), call.items as SavedViewItem[], entityTags(call.headers['if-match']));
        call.header('ETag', etag);
        return rows.map(presentView);
      },
    );
    r.write(
      {
        method: 'post', path, body: createViewSchema, status: 201, response: 'PlanView', description: `${IF_MATCH_OPTIONAL} For a new view, the ETag of the list.`,
        summary: `Save a view of a ${kind}, personal unless visibility says otherwise (shared and board_default: its managers only)`,
      },
      async (call) => {
        const row = await createView(call, container(call.params), call.body, entityTags(call.headers['if-match']));
        call.header('ETag', viewEtag(row));
        call.header('Location', `/v1/plan/views/${row.uuid}/`);
        return presentView(row);
      },
    );
  }
  const one = '/v1/plan/views/:view/';
  r.read({ path: one, summary: 'One saved view (answers its ETag)', response: 'PlanView' }, async (call) => {
    const row = await getView(call, call.params.view);
    call.header('ETag', viewEtag(row));
    return presentView(row);
  });
  for (const method of ['put', 'patch'] as const) {
    r.write(
      {
        method, path: one, response: 'PlanView', description: method === 'put' ? IF_MATCH : IF_MATCH_OPTIONAL,
        summary: method === 'put' ? 'Replace a saved view (filters and sort are emptied when absent)' : 'Change a saved view',
        body: method === 'put' ? replaceViewSchema : updateViewSchema,
      },
      async (call) => {
        const row = await changeView(call, call.params.view, call.body, entityTags(call.headers['if-match']), method === 'put');
        call.header('ETag', viewEtag(row));
        return presentView(row);
      },
    );
  }
  r.write({ method: 'delete', path: one, summary: 'Delete a saved view', description: IF_MATCH_OPTIONAL, status: 204 }, (call) =>
    deleteView(call, call.params.view, entityTags(call.headers['if-match'])),
  );
}
