import type { Executor } from '../../../db/connection.ts';
import type { TaskParticipantRow, TaskRow } from '../../../db/tables.ts';
import { invalidFilter, notFound } from '../../../lib/errors.ts';
import { bool } from '../../../lib/json.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import type { PageRequest } from '../../../lib/page.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { personRef } from '../frame/presenters.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import { assertCanAccessBoard, visibleTask, writableTask } from './access.ts';
import type { TaskAccess } from './access.ts';

/**
 * The people around a task: its participants (who must see its board, like its owner) and who follows its
 * notifications. Participants are a sub-resource: adding or removing one is a `task_participant` change of the
 * task's stream and leaves the task's version alone.
 */

const PERSON_COLUMNS = ['u.uuid', 'u.first_name', 'u.last_name', 'u.email'];

export async function participantsOf(db: Executor, taskUuids: string[]): Promise<Map<string, string[]>> {
  const byTask = new Map<string, string[]>(taskUuids.map((uuid) => [uuid, []]));
  for (let i = 0; i < taskUuids.length; i += 500) {
    const rows: TaskParticipantRow[] = await db('plan_task_participants').whereIn('task_uuid', taskUuids.slice(i, i + 500)).orderBy([{ column: 'created_at' }, { column: 'uuid' }]);
    for (const row of rows) byTask.get(row.task_uuid)!.push(row.user_uuid);
  }
  return byTask;
}

/**
 * Who is on a task and who watches it (the DailyBot client lists both): its participants, then the people who
 * follow it by their own choice, then its owner or creator when they muted it. Each row is the person (`member`,
 * and the person's own fields beside it) with `role` (participant or watcher), `source` (why they are listed:
 * manual, or owner or creator for a muted one) and `is_muted`.
 */
export async function listParticipants(r: PlanRead, ref: string, page: PageRequest) {
  const { task } = await visibleTask(r, ref);
  const [participants, choices]: [TaskParticipantRow[], { user_uuid: string; subscribed: boolean | number }[]] = await Promise.all([
    r.db('plan_task_participants').where({ task_uuid: task.uuid }).orderBy([{ column: 'created_at' }, { column: 'uuid' }]),
    r.db('plan_task_subscriptions').where({ task_uuid: task.uuid }).orderBy([{ column: 'updated_at' }, { column: 'user_uuid' }]).select('user_uuid', 'subscribed'),
  ]);
  const muted = new Set(choices.filter((c) => !bool(c.subscribed)).map((c) => c.user_uuid));
  const onCard = new Set(participants.map((p) => p.user_uuid));
  const rows: { user: string; role: 'participant' | 'watcher'; source: 'manual' | 'owner' | 'creator'; is_muted: boolean }[] = participants.map((p) => ({
    user: p.user_uuid, role: 'participant', source: 'manual', is_muted: muted.has(p.user_uuid),
  }));
  for (const choice of choices) {
    if (onCard.has(choice.user_uuid)) continue;
    const implied = choice.user_uuid === task.owner_uuid ? 'owner' : choice.user_uuid === task.created_by_uuid ? 'creator' : null;
    if (bool(choice.subscribed) && !implied) rows.push({ user: choice.user_uuid, role: 'watcher', source: 'manual', is_muted: false });
    else if (!bool(choice.subscribed) && implied) rows.push({ user: choice.user_uuid, role: 'watcher', source: implied, is_muted: true });
  }
  const shown = rows.slice(page.offset, page.offset + page.limit);
  const people = new Map<string, PersonColumns>(
    shown.length ? ((await r.db('users as u').whereIn('u.uuid', shown.map((row) => row.user)).select(PERSON_COLUMNS)) as PersonColumns[]).map((u) => [u.uuid, u]) : [],
  );
  const results = shown.flatMap(({ user, ...row }) => {
    const person = people.get(user);
    if (!person) return [];
    const member = personRef(person);
    return [{ ...member, member, ...row }];
  });
  return { count: rows.length, results };
}

const presentParticipant = (row: TaskParticipantRow) => ({ uuid: row.uuid, id: row.uuid, task: row.task_uuid, user: row.user_uuid, created_at: row.created_at });

async function add(w: PlanWrite, task: TaskRow, userUuid: string): Promise<void> {
  const row: TaskParticipantRow = { uuid: uuidv7(w.now.getTime()), task_uuid: task.uuid, user_uuid: userUuid, created_at: w.now.toISOString() };
  await w.db('plan_task_participants').insert(row);
  await w.changes.record({ kind: 'task_participant', uuid: row.uuid, change: 'created', board: task.board_uuid, task: task.uuid, snapshot: presentParticipant(row) });
}

async function remove(w: PlanWrite, task: TaskRow, row: TaskParticipantRow): Promise<void> {
  await w.db('plan_task_participants').where({ uuid: row.uuid }).delete();
  await w.changes.record({ kind: 'task_participant', uuid: row.uuid, change: 'deleted', board: task.board_uuid, task: task.uuid, snapshot: null });
}

/** Makes the participants exactly `users` (they must see the board); true when anything changed. */
export async function setParticipants(w: PlanWrite, access: TaskAccess, users: string[]): Promise<boolean> {
  const wanted = new Set(users.map((u) => u.toLowerCase()));
  const current: TaskParticipantRow[] = await w.db('plan_task_participants').where({ task_uuid: access.task.uuid });
  const adding = [...wanted].filter((uuid) => !current.some((row) => row.user_uuid === uuid));
  await assertCanAccessBoard(w.db, w.actor, access.board, adding, 'participants');
  const removing = current.filter((row) => !wanted.has(row.user_uuid));
  for (const row of removing) await remove(w, access.task, row);
  for (const uuid of adding) await add(w, access.task, uuid);
  return adding.length + removing.length > 0;
}

async function participantView(db: Executor, userUuid: string) {
  return personRef((await db('users as u').where('u.uuid', userUuid).first(PERSON_COLUMNS)) as PersonColumns);
}

/** POST …/participants/: adds someone who sees the board (`created` false when they already take part). */
export async function addParticipant(w: PlanWrite, ref: string, userUuid: string, options: { role?: 'participant' | 'watcher'; is_muted?: boolean } = {}) {
  const access = await writableTask(w, ref);
  const user = userUuid.toLowerCase();
  if (options.is_muted !== undefined && user !== w.actor.user.uuid) throw invalidFilter('is_muted', 'Only you can mute a task, for yourself.');
  if (options.role === 'watcher') {
    // A watcher follows the task's notifications without joining it (a muted watcher does not).
    await assertCanAccessBoard(w.db, w.actor, access.board, [user], 'participants');
    await follow(w, access.task, user, options.is_muted !== true);
    return { participant: await participantView(w.db, user), created: false };
  }
  if (options.is_muted !== undefined) await follow(w, access.task, user, !options.is_muted);
  const exists = await w.db('plan_task_participants').where({ task_uuid: access.task.uuid, user_uuid: user }).first('uuid');
  if (!exists) {
    await assertCanAccessBoard(w.db, w.actor, access.board, [user], 'participants');
    await add(w, access.task, user);
  }
  return { participant: await participantView(w.db, user), created: !exists };
}

/**
 * DELETE …/participants/{user}/: takes a participant off the task, or a watcher off its followers (they no longer
 * follow it by their own choice). Leaving is not muting: a muted participant who leaves is simply gone.
 */
export async function removeParticipant(w: PlanWrite, ref: string, userUuid: string) {
  const access = await writableTask(w, ref);
  const user = userUuid.toLowerCase();
  const row: TaskParticipantRow | undefined = await w.db('plan_task_participants').where({ task_uuid: access.task.uuid, user_uuid: user }).first();
  if (row) {
    await remove(w, access.task, row);
    return { deleted: { object_kind: 'task_participant', uuid: row.uuid, user: row.user_uuid } };
  }
  const watching = await w.db('plan_task_subscriptions').where({ task_uuid: access.task.uuid, user_uuid: user, subscribed: true }).first('user_uuid');
  if (!watching) throw notFound();
  await w.db('plan_task_subscriptions').where({ task_uuid: access.task.uuid, user_uuid: user }).delete();
  return { deleted: { object_kind: 'task_watcher', uuid: null, user } };
}

export type SubscriptionReason = 'manual' | 'owner' | 'participant' | 'creator';

/**
 * Whether a person follows a task's notifications, and why: their own choice when they made one, else being its
 * owner, a participant or its creator.
 */
async function subscriptionOf(db: Executor, task: TaskRow, userUuid: string): Promise<{ subscribed: boolean; reason: SubscriptionReason | null }> {
  const choice = await db('plan_task_subscriptions').where({ task_uuid: task.uuid, user_uuid: userUuid }).first('subscribed');
  if (choice) return { subscribed: bool(choice.subscribed), reason: 'manual' };
  if (task.owner_uuid === userUuid) return { subscribed: true, reason: 'owner' };
  if (await db('plan_task_participants').where({ task_uuid: task.uuid, user_uuid: userUuid }).first('uuid')) return { subscribed: true, reason: 'participant' };
  if (task.created_by_uuid === userUuid) return { subscribed: true, reason: 'creator' };
  return { subscribed: false, reason: null };
}

const presentSubscription = (task: TaskRow, state: { subscribed: boolean; reason: SubscriptionReason | null }) => ({ task: task.uuid, ...state });

export async function getSubscription(r: PlanRead, ref: string) {
  const { task } = await visibleTask(r, ref);
  return presentSubscription(task, await subscriptionOf(r.db, task, r.actor.user.uuid));
}

/** The caller's own choice, kept even when it matches what being owner or participant implies. */
export async function setSubscription(w: PlanWrite, ref: string, subscribed: boolean) {
  const { task } = await visibleTask(w, ref);
  await follow(w, task, w.actor.user.uuid, subscribed);
  return presentSubscription(task, { subscribed, reason: 'manual' });
}

async function follow(w: PlanWrite, task: TaskRow, user: string, subscribed: boolean): Promise<void> {
  await w.db('plan_task_subscriptions')
    .insert({ task_uuid: task.uuid, user_uuid: user, subscribed, updated_at: w.now.toISOString() })
    .onConflict(['task_uuid', 'user_uuid'])
    .merge({ subscribed, updated_at: w.now.toISOString() });
}

/**
 * Everyone who follows a task's notifications: its owner, participants and creator unless they opted out, and
 * whoever subscribed themselves. For the notifications of task changes and comments.
 */
export async function taskSubscribers(db: Executor, task: TaskRow): Promise<string[]> {
  const choices: { user_uuid: string; subscribed: boolean | number }[] = await db('plan_task_subscriptions').where({ task_uuid: task.uuid }).select('user_uuid', 'subscribed');
  const participants = (await db('plan_task_participants').where({ task_uuid: task.uuid }).select('user_uuid')).map((p) => p.user_uuid);
  const implied = [task.owner_uuid, task.created_by_uuid, ...participants].filter((u): u is string => u !== null);
  const out = new Set(choices.filter((c) => !bool(c.subscribed)).map((c) => c.user_uuid));
  const followers = new Set([...implied.filter((u) => !out.has(u)), ...choices.filter((c) => bool(c.subscribed)).map((c) => c.user_uuid)]);
  return [...followers].sort();
}
