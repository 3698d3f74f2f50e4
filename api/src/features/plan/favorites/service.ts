import type { Actor } from '../../../auth/credentials.ts';
import type { Executor } from '../../../db/connection.ts';
import { FAVORITE_TYPES } from '../../../db/tables.ts';
import type { FavoriteRow, FavoriteType } from '../../../db/tables.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import type { PageRequest } from '../../../lib/page.ts';
import { visibleBoard, visibleProject, whereVisible } from '../frame/access.ts';
import { seenViews } from '../views/service.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import type { CreateFavoriteInput } from './schema.ts';

/**
 * A person's favorites (pins): tasks, boards, projects and saved views they see, at most 50
 * (favorite_limit_reached). A favorite whose object is gone, or no longer visible to them, is left out of their
 * list; gone ones stop counting towards the limit. Favorites are personal: they are not in the change log. Each
 * has a `rank`, its place in the list (1: the newest).
 */
export const FAVORITE_LIMIT = 50;

/** What a favorite shows of its object. */
export interface FavoriteObject {
  uuid: string;
  name: string;
  key: string | null;
  board: string | null;
}

export interface FavoriteView {
  row: FavoriteRow;
  object: FavoriteObject;
  /** Its place in the person's list, from 1 (the newest). */
  rank: number;
}

/** The objects among `uuids` of one type that the caller sees, by uuid. */
async function visibleObjects(db: Executor, actor: Actor, type: FavoriteType, uuids: string[]): Promise<Map<string, FavoriteObject>> {
  const found = new Map<string, FavoriteObject>();
  if (uuids.length === 0) return found;
  if (type === 'view') {
    for (const view of await seenViews(db, actor, uuids)) found.set(view.uuid, { uuid: view.uuid, name: view.name, key: null, board: view.board_uuid });
    return found;
  }
  if (type === 'board' || type === 'project') {
    const table = type === 'board' ? 'plan_boards' : 'plan_projects';
    const query = db(`${table} as c`).whereIn('c.uuid', uuids);
    whereVisible(query, db, actor, type, 'c');
    const rows: { uuid: string; name: string; key?: string }[] = await query.select(type === 'board' ? ['c.uuid', 'c.name', 'c.key'] : ['c.uuid', 'c.name']);
    for (const row of rows) found.set(row.uuid, { uuid: row.uuid, name: row.name, key: row.key ?? null, board: null });
    return found;
  }
  const tasks: { uuid: string; title: string; number: number; board_uuid: string }[] = await db('plan_tasks')
    .whereIn('uuid', uuids)
    .where({ organization_uuid: actor.organization.uuid })
    .select('uuid', 'title', 'number', 'board_uuid');
  const boards = await visibleObjects(db, actor, 'board', [...new Set(tasks.map((t) => t.board_uuid))]);
  for (const task of tasks) {
    const board = boards.get(task.board_uuid);
    if (board) found.set(task.uuid, { uuid: task.uuid, name: task.title, key: `${board.key}-${task.number}`, board: task.board_uuid });
  }
  return found;
}

export async function listFavorites(r: PlanRead, page: PageRequest): Promise<{ count: number; views: FavoriteView[] }> {
  const rows: FavoriteRow[] = await r.db('plan_favorites').where({ user_uuid: r.actor.user.uuid }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'uuid', order: 'desc' }]);
  const objects = new Map<string, FavoriteObject>();
  for (const type of FAVORITE_TYPES) {
    const uuids = rows.filter((row) => row.object_type === type).map((row) => row.object_uuid);
    for (const [uuid, object] of await visibleObjects(r.db, r.actor, type, uuids)) objects.set(`${type}:${uuid}`, object);
  }
  const views = rows.flatMap((row) => {
    const object = objects.get(`${row.object_type}:${row.object_uuid}`);
    return object ? [{ row, object }] : [];
  }).map((view, index) => ({ ...view, rank: index + 1 }));
  return { count: views.length, views: views.slice(page.offset, page.offset + page.limit) };
}

/** The object, as the caller sees it, or 404 (absent and invisible alike). */
async function objectOf(db: Executor, actor: Actor, type: FavoriteType, uuid: string): Promise<FavoriteObject> {
  if (type === 'board') await visibleBoard(db, actor, uuid);
  if (type === 'project') await visibleProject(db, actor, uuid);
  const object = (await visibleObjects(db, actor, type, [uuid])).get(uuid);
  if (!object) throw notFound();
  return object;
}

/** Favorites of this person whose object no longer exists (deleted boards, projects, tasks). */
async function dropGone(w: PlanWrite): Promise<void> {
  const rows: FavoriteRow[] = await w.db('plan_favorites').where({ user_uuid: w.actor.user.uuid });
  const tables: Record<FavoriteType, 'plan_tasks' | 'plan_boards' | 'plan_projects' | 'plan_views'> = { task: 'plan_tasks', board: 'plan_boards', project: 'plan_projects', view: 'plan_views' };
  for (const type of FAVORITE_TYPES) {
    const uuids = rows.filter((row) => row.object_type === type).map((row) => row.object_uuid);
    if (uuids.length === 0) continue;
    const present = new Set((await w.db(tables[type]).whereIn('uuid', uuids).select('uuid')).map((row: { uuid: string }) => row.uuid));
    const gone = uuids.filter((uuid) => !present.has(uuid));
    if (gone.length) await w.db('plan_favorites').where({ user_uuid: w.actor.user.uuid, object_type: type }).whereIn('object_uuid', gone).delete();
  }
}

/** Where a favorite stands in its person's list. */
async function rankOf(r: PlanRead, uuid: string): Promise<number> {
  const { views } = await listFavorites(r, { offset: 0, limit: FAVORITE_LIMIT * 2, style: 'offset' });
  return (views.find((view) => view.row.uuid === uuid)?.rank ?? 0);
}

/** Adds a favorite (201), or answers the one already there (200). */
export async function addFavorite(w: PlanWrite, input: CreateFavoriteInput): Promise<FavoriteView & { created: boolean }> {
  const type = input.object_type as FavoriteType;
  const uuid = input.object_uuid.toLowerCase();
  const object = await objectOf(w.db, w.actor, type, uuid);
  const existing: FavoriteRow | undefined = await w.db('plan_favorites').where({ user_uuid: w.actor.user.uuid, object_type: type, object_uuid: uuid }).first();
  if (existing) return { row: existing, object, rank: await rankOf(w, existing.uuid), created: false };
  await dropGone(w);
  const [{ count }] = await w.db('plan_favorites').where({ user_uuid: w.actor.user.uuid }).count({ count: '*' });
  if (Number(count) >= FAVORITE_LIMIT) throw badRequest('favorite_limit_reached', `You already have ${FAVORITE_LIMIT} favorites; remove one first.`, { limit: FAVORITE_LIMIT });
  const row: FavoriteRow = { uuid: uuidv7(w.now.getTime()), organization_uuid: w.actor.organization.uuid, user_uuid: w.actor.user.uuid, object_type: type, object_uuid: uuid, created_at: w.now.toISOString() };
  await w.db('plan_favorites').insert(row);
  return { row, object, rank: await rankOf(w, row.uuid), created: true };
}

export async function removeFavorite(w: PlanWrite, uuid: string) {
  const row: FavoriteRow | undefined = await w.db('plan_favorites').where({ uuid }).first();
  if (!row || row.user_uuid !== w.actor.user.uuid) throw notFound();
  await w.db('plan_favorites').where({ uuid }).delete();
  return { deleted: { object_kind: 'favorite', uuid, object_type: row.object_type, object_uuid: row.object_uuid } };
}
