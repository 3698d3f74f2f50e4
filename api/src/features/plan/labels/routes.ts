import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentLabel } from './presenter.ts';
import { archiveLabel, createLabel, deleteLabel, getLabel, homeOfLabel, listLabels, listUsableLabels, restoreLabel, updateLabel } from './service.ts';
import { createLabelSchema, createOrganizationLabelSchema, updateLabelSchema } from './schema.ts';

const ORDERING = { name: 'name_key', created_at: 'created_at', updated_at: 'updated_at' };

export function labelRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: labels');
  const base = '/v1/plan/boards/:board/labels';
  r.list(
    {
      path: `${base}/`,
      summary: 'Labels of a board: its own and its organization\'s (board null)',
      item: 'PlanLabel',
      query: [
        { name: 'include_archived', description: 'true to include archived labels' },
        { name: 'search', description: 'name contains (2–256 characters)' },
        { name: 'ordering', description: 'name, created_at or updated_at; prefix - for descending' },
      ],
    },
    async (call) => {
      const filters = { includeArchived: call.query.flag('include_archived'), search: call.query.search(), ordering: call.query.ordering(ORDERING, { column: 'name_key', order: 'asc' }) };
      const { count, rows } = await listLabels(call, call.params.board, filters, call.page);
      return { count, results: rows.map(presentLabel) };
    },
  );
  r.write({ method: 'post', path: `${base}/`, summary: 'Create a label (board managers)', body: createLabelSchema, status: 201, response: 'PlanLabel' }, async (call) =>
    presentLabel(await createLabel(call, call.params.board, call.body)),
  );
  r.read({ path: `${base}/:label/`, summary: 'One label', response: 'PlanLabel' }, async (call) => presentLabel(await getLabel(call, call.params.board, call.params.label)));
  r.write({ method: 'patch', path: `${base}/:label/`, summary: 'Rename or recolour a label', body: updateLabelSchema, response: 'PlanLabel' }, async (call) =>
    presentLabel(await updateLabel(call, call.params.board, call.params.label, call.body)),
  );
  r.write({ method: 'post', path: `${base}/:label/archive/`, summary: 'Archive a label (it stays on its tasks)', destructive: true, response: 'PlanLabel' }, async (call) =>
    presentLabel(await archiveLabel(call, call.params.board, call.params.label)),
  );
  r.write({ method: 'post', path: `${base}/:label/restore/`, summary: 'Restore an archived label', response: 'PlanLabel' }, async (call) =>
    presentLabel(await restoreLabel(call, call.params.board, call.params.label)),
  );
  r.write({ method: 'delete', path: `${base}/:label/`, summary: 'Delete a label on no task (409 label_in_use: archive it instead)', status: 204 }, (call) =>
    deleteLabel(call, call.params.board, call.params.label),
  );
  // The organization's labels and a label by its uuid alone (the DailyBot client's doors): a board label's
  // operations run on its own board, an organization label's on the organization.
  const organization = '/v1/plan/labels/';
  r.list(
    {
      path: organization, summary: 'Labels you can put on tasks: the organization\'s (board null) and those of the boards you see', item: 'PlanLabel',
      query: [
        { name: 'include_archived', description: 'true to include archived labels' },
        { name: 'search', description: 'name contains (2–256 characters)' },
        { name: 'ordering', description: 'name, created_at or updated_at; prefix - for descending' },
      ],
    },
    async (call) => {
      const filters = { includeArchived: call.query.flag('include_archived'), search: call.query.search(), ordering: call.query.ordering(ORDERING, { column: 'name_key', order: 'asc' }) };
      const { count, rows } = await listUsableLabels(call, filters, call.page);
      return { count, results: rows.map(presentLabel) };
    },
  );
  r.write(
    {
      method: 'post', path: organization, body: createOrganizationLabelSchema, status: 201, response: 'PlanLabel',
      summary: 'Create an organization label, which every board offers (by a person; with board: that board\'s label, by its managers)',
    },
    async (call) => {
      const { board, ...label } = call.body;
      return presentLabel(await createLabel(call, board ?? null, label));
    },
  );
  const one = '/v1/plan/labels/:label/';
  r.read({ path: one, summary: 'One label, by its uuid alone', response: 'PlanLabel' }, async (call) => presentLabel(await getLabel(call, await homeOfLabel(call, call.params.label), call.params.label)));
  r.write(
    {
      method: 'patch', path: one, body: updateLabelSchema, response: 'PlanLabel',
      summary: 'Rename, recolour, describe, archive or restore a label, by its uuid alone (an organization label: its creator or an admin, label_manager_required)',
    },
    async (call) => presentLabel(await updateLabel(call, await homeOfLabel(call, call.params.label), call.params.label, call.body)),
  );
  r.write({ method: 'delete', path: one, summary: 'Delete a label on no task, by its uuid alone (409 label_in_use; an organization label: an admin)', status: 204 }, async (call) =>
    deleteLabel(call, await homeOfLabel(call, call.params.label), call.params.label),
  );
}
