import type { Executor } from '../../../db/connection.ts';
import type { CommentRow, TaskRow } from '../../../db/tables.ts';
import { badRequest, forbidden, notFound } from '../../../lib/errors.ts';
import { uuidv7 } from '../../../lib/ids.ts';
import { readJson, writeJson } from '../../../lib/json.ts';
import type { PageRequest } from '../../../lib/page.ts';
import type { PlanRead, PlanWrite } from '../frame/context.ts';
import { pageOf } from '../frame/lists.ts';
import type { PersonColumns } from '../frame/presenters.ts';
import { taskOnLockedBoard, visibleTask } from '../tasks/access.ts';
import { removeComments } from '../tasks/comment-removal.ts';
import type { TaskAccess } from '../tasks/access.ts';
import { mentionables, mentionedIn } from './mentions.ts';
import { notifyComment } from './notices.ts';
import { presentComment } from './presenter.ts';
import { COMMENT_BODY_MAX } from './schema.ts';
import type { CreateCommentInput, EditCommentInput } from './schema.ts';

/**
 * Comments on tasks. Everyone who sees a task reads and writes its comments; replies are one level deep (400
 * invalid_relation for a reply to a reply or to another task's comment); only a comment's author edits or
 * deletes it (403 comment_not_author), and deleting one removes its replies, files and reactions. Every write
 * is a `comment` change on the task's board stream (the delta feed and the task's activity carry it).
 */
export interface CommentView {
  row: CommentRow;
  author: PersonColumns | null;
  replies: number;
}

const PERSON_COLUMNS = ['uuid', 'first_name', 'last_name', 'email'];

function assertLength(body: string): void {
  const length = [...body].length;
  if (length > COMMENT_BODY_MAX) {
    throw badRequest('comment_body_too_long', `A comment has at most ${COMMENT_BODY_MAX} characters; this one has ${length}.`, { max_length: COMMENT_BODY_MAX });
  }
}

async function views(db: Executor, rows: CommentRow[]): Promise<CommentView[]> {
  if (rows.length === 0) return [];
  const authors = [...new Set(rows.map((r) => r.author_uuid).filter((u): u is string => u !== null))];
  const people: PersonColumns[] = authors.length ? await db('users').whereIn('uuid', authors).select(PERSON_COLUMNS) : [];
  const byUuid = new Map(people.map((p) => [p.uuid, p]));
  const tops = rows.filter((r) => r.parent_uuid === null).map((r) => r.uuid);
  const replies = new Map<string, number>();
  if (tops.length) {
    const counts: { parent_uuid: string; count: number | string }[] = await db('plan_comments').whereIn('parent_uuid', tops).groupBy('parent_uuid').select('parent_uuid').count({ count: '*' });
    for (const c of counts) replies.set(c.parent_uuid, Number(c.count));
  }
  return rows.map((row) => ({ row, author: row.author_uuid ? (byUuid.get(row.author_uuid) ?? null) : null, replies: replies.get(row.uuid) ?? 0 }));
}

const present = (view: CommentView) => presentComment(view.row, view.author, view.replies);

/** A task's comments, oldest first (replies among them, each naming its parent). */
export async function listComments(r: PlanRead, ref: string, page: PageRequest) {
  const { task } = await visibleTask(r, ref);
  const { count, rows } = await pageOf<CommentRow>(() => r.db('plan_comments').where({ task_uuid: task.uuid }), page, (query) =>
    query.orderBy([{ column: 'created_at' }, { column: 'uuid' }]),
  );
  return { count, results: (await views(r.db, rows)).map(present) };
}

async function commentOf(db: Executor, task: TaskRow, uuid: string): Promise<CommentRow> {
  const row: CommentRow | undefined = await db('plan_comments').where({ uuid: uuid.toLowerCase() }).first();
  if (!row || row.task_uuid !== task.uuid) throw notFound();
  return row;
}

/** The task (visible to the caller) and one of its comments; 404 for either missing. */
export async function visibleComment(r: PlanRead, ref: string, uuid: string): Promise<TaskAccess & { comment: CommentRow }> {
  const access = await visibleTask(r, ref);
  return { ...access, comment: await commentOf(r.db, access.task, uuid) };
}

export async function getComment(r: PlanRead, ref: string, uuid: string) {
  const { comment } = await visibleComment(r, ref, uuid);
  return present((await views(r.db, [comment]))[0]);
}

async function recordComment(w: PlanWrite, task: TaskRow, row: CommentRow, change: 'created' | 'updated', fields: string[] = []) {
  const [view] = await views(w.db, [row]);
  const presented = present(view);
  await w.changes.record({ kind: 'comment', uuid: row.uuid, change, board: task.board_uuid, task: task.uuid, fields, snapshot: presented });
  return presented;
}

async function parentFor(db: Executor, task: TaskRow, parent: string): Promise<CommentRow> {
  const row: CommentRow | undefined = await db('plan_comments').where({ uuid: parent.toLowerCase() }).first();
  if (!row || row.task_uuid !== task.uuid) throw badRequest('invalid_relation', 'A reply answers a comment of the same task; parent names no comment of this task.', { parameter: 'parent' });
  if (row.parent_uuid !== null) throw badRequest('invalid_relation', 'Replies are one level deep: answer the comment this reply answers.', { parameter: 'parent' });
  return row;
}

export async function createComment(w: PlanWrite, ref: string, input: CreateCommentInput) {
  // The board's lock before the comment points at the task (frame/locks.ts).
  const { task, board } = await taskOnLockedBoard(w, ref);
  assertLength(input.body);
  const parent = input.parent ? await parentFor(w.db, task, input.parent) : null;
  const mentions = await mentionables(w.db, w.actor.organization.uuid, board, mentionedIn(input.body));
  const row: CommentRow = {
    uuid: uuidv7(w.now.getTime()),
    organization_uuid: w.actor.organization.uuid,
    task_uuid: task.uuid,
    parent_uuid: parent?.uuid ?? null,
    author_uuid: w.actor.user.uuid,
    agent_name: w.agentName,
    body: input.body,
    mentions: writeJson(mentions),
    created_at: w.now.toISOString(),
    updated_at: w.now.toISOString(),
    edited_at: null,
  };
  await w.db('plan_comments').insert(row);
  const presented = await recordComment(w, task, row, 'created');
  await notifyComment(w, { task, board, comment: row, parent, mentioned: mentions });
  return presented;
}

const notAuthor = (doing: string) => forbidden('comment_not_author', `Only the author of a comment can ${doing} it.`);

/** The comment the caller wrote (403 comment_not_author for anyone else's). */
export async function ownComment(w: PlanRead, ref: string, uuid: string, doing: string) {
  const found = await visibleComment(w, ref, uuid);
  if (found.comment.author_uuid !== w.actor.user.uuid) throw notAuthor(doing);
  return found;
}

/** Edits the body; people it newly mentions are told. */
export async function editComment(w: PlanWrite, ref: string, uuid: string, input: EditCommentInput) {
  await taskOnLockedBoard(w, ref);
  const { task, board, comment } = await ownComment(w, ref, uuid, 'edit');
  if (input.body === comment.body) return present((await views(w.db, [comment]))[0]);
  assertLength(input.body);
  const before = new Set(readJson<string[]>(comment.mentions, []));
  const mentions = await mentionables(w.db, w.actor.organization.uuid, board, mentionedIn(input.body));
  const updated: CommentRow = { ...comment, body: input.body, mentions: writeJson(mentions), updated_at: w.now.toISOString(), edited_at: w.now.toISOString() };
  await w.db('plan_comments').where({ uuid: comment.uuid }).update({ body: updated.body, mentions: updated.mentions, updated_at: updated.updated_at, edited_at: updated.edited_at });
  const presented = await recordComment(w, task, updated, 'updated', ['body']);
  await notifyComment(w, { task, board, comment: updated, parent: null, mentioned: mentions.filter((u) => !before.has(u)), edited: true });
  return presented;
}

/** Deletes a comment (its author only) and its replies. */
export async function deleteComment(w: PlanWrite, ref: string, uuid: string) {
  await taskOnLockedBoard(w, ref);
  const { task, comment } = await ownComment(w, ref, uuid, 'delete');
  const replies: string[] = (await w.db('plan_comments').where({ parent_uuid: comment.uuid }).select('uuid')).map((r) => r.uuid);
  await removeComments(w, task, [...replies, comment.uuid]);
  if (replies.length) await w.db('plan_comments').whereIn('uuid', replies).delete();
  await w.db('plan_comments').where({ uuid: comment.uuid }).delete();
  return { deleted: { object_kind: 'comment', uuid: comment.uuid }, removed_replies: replies.length };
}
