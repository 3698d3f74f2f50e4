import type { ReactionRow } from '../../../db/tables.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import type { PageRequest } from '../../../lib/page.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { lockStreamOf } from '../frame/locks.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import { reactionEmoji } from './emoji.ts';
import type { ReactableKind, ReactionTarget } from './kinds.ts';

/**
 * Reactions: each person puts an emoji on a project update (or a comment) once; an object holds at most 20
 * distinct emojis (reaction_limit_reached with extra.limit); adding one already there is fine.
 */
export const DISTINCT_EMOJI_LIMIT = 20;

export type ReactionRead = PlanRead & { params: Record<string, string> };
export type ReactionWrite = PlanWrite & { params: Record<string, string> };

/** One emoji on an object: how many put it there, who, and whether the caller did. */
export interface ReactionGroup {
  emoji: string;
  people: PersonColumns[];
  mine: boolean;
}

async function groups(r: PlanRead, kind: ReactableKind, target: ReactionTarget): Promise<ReactionGroup[]> {
  const rows: ReactionRow[] = await r.db('plan_reactions').where({ object_uuid: target.uuid, object_kind: kind.kind }).orderBy([{ column: 'created_at' }, { column: 'user_uuid' }]);
  const uuids = [...new Set(rows.map((row) => row.user_uuid))];
  const people = new Map<string, PersonColumns>();
  for (let i = 0; i < uuids.length; i += 500) {
    for (const p of (await r.db('users').whereIn('uuid', uuids.slice(i, i + 500)).select('uuid', 'first_name', 'last_name', 'email')) as PersonColumns[]) people.set(p.uuid, p);
  }
  const byEmoji = new Map<string, ReactionGroup>();
  for (const row of rows) {
    const group = byEmoji.get(row.emoji) ?? { emoji: row.emoji, people: [], mine: false };
    const person = people.get(row.user_uuid);
    if (person) group.people.push(person);
    if (row.user_uuid === r.actor.user.uuid) group.mine = true;
    byEmoji.set(row.emoji, group);
  }
  return [...byEmoji.values()];
}

export async function listReactions(r: ReactionRead, kind: ReactableKind, page: PageRequest): Promise<{ count: number; groups: ReactionGroup[] }> {
  const all = await groups(r, kind, await kind.resolve(r, r.params));
  return { count: all.length, groups: all.slice(page.offset, page.offset + page.limit) };
}

const recordReaction = (w: PlanWrite, kind: ReactableKind, target: ReactionTarget, emoji: string, change: 'created' | 'deleted') =>
  w.changes.record({
    kind: 'reaction',
    uuid: target.uuid,
    change,
    board: target.board,
    project: target.project,
    snapshot: change === 'deleted' ? null : { object_type: kind.kind, object_uuid: target.uuid, emoji, user: w.actor.user.uuid },
  });

/** Adds the caller's reaction (created: false when it was already there); answers the emoji's group. */
export async function addReaction(w: ReactionWrite, kind: ReactableKind, raw: string): Promise<{ group: ReactionGroup; created: boolean }> {
  const target = await lockStreamOf(w, await kind.resolve(w, w.params));
  const emoji = reactionEmoji(raw);
  const where = { object_uuid: target.uuid, object_kind: kind.kind };
  const mine = await w.db('plan_reactions').where({ ...where, emoji, user_uuid: w.actor.user.uuid }).first('emoji');
  if (!mine) {
    const present = await w.db('plan_reactions').where({ ...where, emoji }).first('emoji');
    if (!present) {
      const [{ count }] = await w.db('plan_reactions').where(where).countDistinct({ count: 'emoji' });
      if (Number(count) >= DISTINCT_EMOJI_LIMIT) {
        throw badRequest('reaction_limit_reached', `This ${kind.noun} already holds ${DISTINCT_EMOJI_LIMIT} different emojis; react with one of them.`, { limit: DISTINCT_EMOJI_LIMIT });
      }
    }
    await w.db('plan_reactions').insert({ ...where, organization_uuid: w.actor.organization.uuid, emoji, user_uuid: w.actor.user.uuid, created_at: w.now.toISOString() });
    await recordReaction(w, kind, target, emoji, 'created');
  }
  const group = (await groups(w, kind, target)).find((g) => g.emoji === emoji)!;
  return { group, created: !mine };
}

/** Removes the caller's reaction (404 when they had none with this emoji). */
export async function removeReaction(w: ReactionWrite, kind: ReactableKind, raw: string) {
  const target = await lockStreamOf(w, await kind.resolve(w, w.params));
  let emoji: string;
  try {
    emoji = reactionEmoji(raw);
  } catch {
    throw notFound();
  }
  const removed = await w.db('plan_reactions').where({ object_uuid: target.uuid, object_kind: kind.kind, emoji, user_uuid: w.actor.user.uuid }).delete();
  if (removed === 0) throw notFound();
  await recordReaction(w, kind, target, emoji, 'deleted');
  return { deleted: { object_kind: 'reaction', object_uuid: target.uuid, emoji } };
}

/** An object's reactions go with it (services call this when they delete one). */
export async function removeReactionsOf(w: PlanWrite, kind: string, objectUuids: string[]): Promise<void> {
  for (let i = 0; i < objectUuids.length; i += 500) await w.db('plan_reactions').where({ object_kind: kind }).whereIn('object_uuid', objectUuids.slice(i, i + 500)).delete();
}
