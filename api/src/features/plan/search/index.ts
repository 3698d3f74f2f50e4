import type { Knex } from 'knex';
import { isSqlite } from '../../../db/connection.ts';
import type { Db, Executor } from '../../../db/connection.ts';

/**
 * Full-text search of tasks: one module owns how text is indexed and matched, so its internals can change
 * without touching the lists that use it.
 *
 * Indexing: a task's title and description, as words: NFC, lower case, split on anything but letters, marks and
 * digits (done here rather than by the engine, so SQLite's FTS5 and PostgreSQL's text search index the same
 * words whatever the database's locale). Written in the task's own transaction (migration 0621 has the tables).
 * Matching: every word of the search text is the start of a word of the task ("deplo fail" finds "Deploy
 * failed"). The lists add an exact `KEY-n` match themselves.
 */

const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;

export function searchWords(text: string): string[] {
  return text.normalize('NFC').toLowerCase().split(NOT_WORD).filter((word) => word !== '');
}

const engineOf = (db: Executor): Db => db as unknown as Db;

/** Indexes (or re-indexes) a task's words, in the caller's transaction. */
export async function indexTask(db: Executor, task: { uuid: string; title: string; description: string }): Promise<void> {
  const words = searchWords(`${task.title} ${task.description}`).join(' ');
  if (!isSqlite(engineOf(db))) {
    await db.raw("insert into plan_task_search (task_uuid, words) values (?, to_tsvector('simple', ?)) on conflict (task_uuid) do update set words = excluded.words", [task.uuid, words]);
    return;
  }
  const existing = await db('plan_task_search').where({ task_uuid: task.uuid }).first('id');
  let id = existing?.id;
  if (id === undefined) {
    [id] = (await db('plan_task_search').insert({ task_uuid: task.uuid })) as number[];
  } else {
    await db.raw('delete from plan_task_search_fts where rowid = ?', [id]);
  }
  await db.raw('insert into plan_task_search_fts (rowid, words) values (?, ?)', [id, words]);
}

/**
 * The uuids of the tasks whose words match `text`, as a subquery for `whereIn('uuid', …)`. A text with no word
 * (only punctuation) matches nothing.
 */
export function matchingTasks(db: Executor, text: string): Knex.QueryBuilder {
  const words = searchWords(text);
  const query = db('plan_task_search').select('task_uuid');
  if (words.length === 0) return query.whereRaw('1 = 0');
  if (!isSqlite(engineOf(db))) return query.whereRaw("words @@ to_tsquery('simple', ?)", [words.map((word) => `${word}:*`).join(' & ')]);
  return query.whereRaw('id in (select rowid from plan_task_search_fts where plan_task_search_fts match ?)', [words.map((word) => `"${word}"*`).join(' ')]);
}
