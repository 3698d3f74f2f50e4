import { badRequest, forbidden, notFound } from '../../../lib/errors.ts';
import type { Executor } from '../../../db/connection.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { visibleProject, whereVisible } from '../frame/access.ts';
import { lockOrganizationStream } from '../frame/locks.ts';
import { can } from '../../../auth/policy.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import { pageOf } from '../frame/lists.ts';
import { removeAttachmentsOf } from '../files/repository.ts';
import { removeReactionsOf } from '../emoji/service.ts';
import { presentUpdate } from './presenter.ts';
import { UPDATE_BODY_MAX } from './schema.ts';
import type { CreateUpdateInput, EditUpdateInput } from './schema.ts';
import type { ProjectUpdateRow } from '../../../db/tables.ts';

/**
 * Project updates (status posts). Everyone who sees the project may post one; only its author edits it (403
 * update_not_author); its author or an organization admin deletes it. The author is the person whose credential
 * posted it; an agent posting through X-Service-Agent-Name is recorded beside them.
 */
export interface UpdateView {
  row: ProjectUpdateRow;
  author: PersonColumns | null;
}

const PERSON_COLUMNS = ['uuid', 'first_name', 'last_name', 'email'];

function assertLength(body: string): void {
  const length = [...body].length;
  if (length > UPDATE_BODY_MAX) {
    throw badRequest('update_body_too_long', `A project update has at most ${UPDATE_BODY_MAX} characters; this one has ${length}.`, { max_length: UPDATE_BODY_MAX });
  }
}

async function withAuthors(db: Executor, rows: ProjectUpdateRow[]): Promise<UpdateView[]> {
  const uuids = [...new Set(rows.map((r) => r.author_uuid).filter((u): u is string => u !== null))];
  const people: PersonColumns[] = uuids.length ? await db('users').whereIn('uuid', uuids).select(PERSON_COLUMNS) : [];
  const byUuid = new Map(people.map((p) => [p.uuid, p]));
  return rows.map((row) => ({ row, author: row.author_uuid ? (byUuid.get(row.author_uuid) ?? null) : null }));
}

export async function listUpdates(r: PlanRead, projectUuid: string, page: PageRequest): Promise<{ count: number; views: UpdateView[] }> {
  await visibleProject(r.db, r.actor, projectUuid);
  const { count, rows } = await pageOf<ProjectUpdateRow>(() => r.db('plan_project_updates').where({ project_uuid: projectUuid }), page, (query) =>
    query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'uuid', order: 'desc' }]),
  );
  return { count, views: await withAuthors(r.db, rows) };
}

/** The updates of every project the caller sees, newest first (the DailyBot client's `projects/updates/` digest). */
export async function listAllUpdates(r: PlanRead, page: PageRequest): Promise<{ count: number; views: UpdateView[] }> {
  const visible = whereVisible(r.db('plan_projects as p'), r.db, r.actor, 'project', 'p').whereNull('p.archived_at').select('p.uuid');
  const { count, rows } = await pageOf<ProjectUpdateRow>(() => r.db('plan_project_updates').whereIn('project_uuid', visible), page, (query) =>
    query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'uuid', order: 'desc' }]),
  );
  return { count, views: await withAuthors(r.db, rows) };
}

async function updateOf(db: Executor, projectUuid: string, uuid: string): Promise<ProjectUpdateRow> {
  const row: ProjectUpdateRow | undefined = await db('plan_project_updates').where({ uuid }).first();
  if (!row || row.project_uuid !== projectUuid) throw notFound();
  return row;
}

/** A project update the caller sees, by its project and uuid (404 otherwise): what files and reactions attach to. */
export async function visibleUpdate(r: PlanRead, projectUuid: string, uuid: string): Promise<ProjectUpdateRow> {
  await visibleProject(r.db, r.actor, projectUuid);
  return updateOf(r.db, projectUuid, uuid);
}

export async function getUpdate(r: PlanRead, projectUuid: string, uuid: string): Promise<UpdateView> {
  return (await withAuthors(r.db, [await visibleUpdate(r, projectUuid, uuid)]))[0];
}

async function recordUpdate(w: PlanWrite, view: UpdateView, change: 'created' | 'updated', fields: string[] = []): Promise<UpdateView> {
  await w.changes.record({ kind: 'project_update', uuid: view.row.uuid, change, board: null, project: view.row.project_uuid, fields, snapshot: presentUpdate(view.row, view.author) });
  return view;
}

export async function createUpdate(w: PlanWrite, projectUuid: string, input: CreateUpdateInput): Promise<UpdateView> {
  await lockOrganizationStream(w);
  const { row: project } = await visibleProject<{ uuid: string; visibility: string; archived_at: string | null }>(w.db, w.actor, projectUuid);
  assertLength(input.body);
  const row: ProjectUpdateRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: w.actor.organization.uuid,
    project_uuid: project.uuid,
    author_uuid: w.actor.user.uuid,
    agent_name: w.agentName,
    body: input.body,
    health: input.health ?? null,
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
    edited_at: null,
  };
  await w.db('plan_project_updates').insert(row);
  return recordUpdate(w, (await withAuthors(w.db, [row]))[0], 'created');
}

const notAuthor = (doing: string) => forbidden('update_not_author', `Only the author of a project update can ${doing} it.`);

export async function editUpdate(w: PlanWrite, projectUuid: string, uuid: string, input: EditUpdateInput): Promise<UpdateView> {
  await lockOrganizationStream(w);
  await visibleProject(w.db, w.actor, projectUuid);
  const update = await updateOf(w.db, projectUuid, uuid);
  if (update.author_uuid !== w.actor.user.uuid) throw notAuthor('edit');
  const changes: Partial<ProjectUpdateRow> = {};
  if (input.body !== undefined && input.body !== update.body) {
    assertLength(input.body);
    changes.body = input.body;
  }
  if (input.health !== undefined && input.health !== update.health) changes.health = input.health;
  if (Object.keys(changes).length === 0) return (await withAuthors(w.db, [update]))[0];
  const updated = { ...update, ...changes, updated_at: w.now.toISOString(), edited_at: w.now.toISOString() };
  await w.db('plan_project_updates').where({ uuid }).update({ ...changes, updated_at: updated.updated_at, edited_at: updated.edited_at });
  return recordUpdate(w, (await withAuthors(w.db, [updated]))[0], 'updated', Object.keys(changes));
}

export async function deleteUpdate(w: PlanWrite, projectUuid: string, uuid: string) {
  await lockOrganizationStream(w);
  await visibleProject(w.db, w.actor, projectUuid);
  const update = await updateOf(w.db, projectUuid, uuid);
  if (update.author_uuid !== w.actor.user.uuid && !can(w.actor, 'plan.manage_all')) {
    throw forbidden('update_not_author', 'Only the author of a project update or an organization admin can delete it.');
  }
  await removeAttachmentsOf(w, 'project_update', [uuid]);
  await removeReactionsOf(w, 'project_update', [uuid]);
  await w.db('plan_project_updates').where({ uuid }).delete();
  await w.changes.record({ kind: 'project_update', uuid, change: 'deleted', board: null, project: projectUuid, snapshot: null });
  return { deleted: { object_kind: 'project_update', uuid } };
}
