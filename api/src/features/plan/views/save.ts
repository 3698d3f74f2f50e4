import type { ViewRow, ViewVisibility } from '../../../db/tables.ts';
import { badRequest, invalidFilter } from '../../../lib/errors.ts';
import { writeJson } from '../../../lib/json.ts';
import type { PlanWrite } from '../frame/context.ts';
import { assertMayHave, checkPrecondition, inContainer, listEtag, lockContainer, placeOf, visibleViews } from './place.ts';
import type { ViewContainer } from './place.ts';
import { viewModeOf } from './schema.ts';
import type { SavedViewItem } from './schema.ts';
import { PERSONAL_VIEW_LIMIT, newViewRow, recordViewChange, sortList } from './service.ts';

/**
 * `PUT …/views/` with an array (the DailyBot client's save): the caller's own views of the place become exactly
 * these, in one go: their personal views of a board or project, their personal and shared views of the workspace.
 * An item with the `uuid` of one of them changes it, one without is new, the others are deleted. If-Match carries
 * the list's ETag (428 without it, 412 when it changed since), so two saves never drop each other's views. Other
 * people's views are left as they are.
 */
export async function saveViews(w: PlanWrite, container: ViewContainer, items: SavedViewItem[], ifMatch: string[]): Promise<{ rows: ViewRow[]; etag: string }> {
  const place = await placeOf(w.db, w.actor, container);
  const allowed: ViewVisibility[] = container.kind === 'workspace' ? ['personal', 'shared'] : ['personal'];
  assertMayHave(w.actor, place, 'personal');
  for (const [index, item] of items.entries()) {
    const visibility = (item.visibility ?? 'personal') as ViewVisibility;
    if (!allowed.includes(visibility)) throw invalidFilter(`${index}.visibility`, `A saved ${container.kind} view is ${allowed.join(' or ')} here.`);
    assertMayHave(w.actor, place, visibility);
  }
  await lockContainer(w, container);
  checkPrecondition(ifMatch, listEtag(w.actor, container, await visibleViews(w.db, w.actor, container)));
  if (items.filter((item) => (item.visibility ?? 'personal') === 'personal').length > PERSONAL_VIEW_LIMIT) {
    throw badRequest('view_limit_reached', `At most ${PERSONAL_VIEW_LIMIT} personal views on a ${container.kind}.`, { limit: PERSONAL_VIEW_LIMIT });
  }
  const mine: ViewRow[] = await inContainer(w.db, w.actor, container).where({ owner_uuid: w.actor.user.uuid }).whereIn('visibility', allowed);
  const byUuid = new Map(mine.map((row) => [row.uuid, row]));
  const kept = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (item.uuid === undefined) continue;
    const uuid = item.uuid.toLowerCase();
    if (!byUuid.has(uuid) || kept.has(uuid)) throw invalidFilter(`${index}.uuid`, 'Not one of your own views here (or named twice).');
    kept.add(uuid);
  }
  const now = w.now.toISOString();
  for (const row of mine.filter((row) => !kept.has(row.uuid))) {
    await w.db('plan_views').where({ uuid: row.uuid }).delete();
    await recordViewChange(w, row, null, []);
  }
  for (const item of items) {
    const visibility = (item.visibility ?? 'personal') as ViewVisibility;
    const old = item.uuid === undefined ? undefined : byUuid.get(item.uuid.toLowerCase());
    if (!old) {
      const row = newViewRow(w, place, item, visibility);
      await w.db('plan_views').insert(row);
      await recordViewChange(w, null, row, []);
      continue;
    }
    const fields = {
      name: item.name.trim(), visibility, filters: writeJson(item.filters ?? {}), sort: writeJson(sortList(item.sort)),
      view_mode: viewModeOf(item.view_mode) ?? null, group_by: item.group_by ?? null, sub_group_by: item.sub_group_by ?? null,
    };
    const updated: ViewRow = { ...old, ...fields, version: Number(old.version) + 1, updated_at: now };
    await w.db('plan_views').where({ uuid: old.uuid }).update({ ...fields, version: updated.version, updated_at: now });
    await recordViewChange(w, old, updated, Object.keys(fields));
  }
  const rows = await visibleViews(w.db, w.actor, container);
  return { rows, etag: listEtag(w.actor, container, rows) };
}
