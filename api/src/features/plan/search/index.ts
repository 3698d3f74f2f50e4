import type { Knex } from 'knex';
import { isSqlite } from '../../../db/connection.ts';
import type { Db, Executor } from '../../../db/connection.ts';
import { searchWords } from '../../../lib/words.ts';

export { searchWords };

/**
 * Full-text search of tasks, boards and projects: one module owns how text is indexed and matched, so its
 * internals can change without touching the lists and the search that use it.
 *
 * Indexing: a task's title and description, a board's key, name and description, a project's name and
 * description, as words (lib/words.ts: NFC, lower case, split on anything but letters, marks and digits, the same
 * on both engines). Written in the object's own transaction (migrations 0621 and 0670 have the tables; deleting
 * the object removes its row by cascade). Matching: every word of the search text is the start of a word of the
 * object ("deplo fail" finds "Deploy failed"). Task lists add an exact `KEY-n` match themselves.
 */

export type Indexed = 'task' | 'board' | 'project';

/** Per kind: the index table and its key column (SQLite adds `<table>_fts`, the FTS5 index keyed by `<table>.id`). */
const TABLES: Record<Indexed, { table: string; column: string }> = {
  task: { table: 'plan_task_search', column: 'task_uuid' },
  board: { table: 'plan_board_search', column: 'board_uuid' },
  project: { table: 'plan_project_search', column: 'project_uuid' },
};

const engineOf = (db: Executor): Db => db as unknown as Db;

/** An FTS5 query matching every word as the start of a word (quoted: FTS5's operators are plain words here). */
const ftsQuery = (words: string[]) => words.map((word) => `"${word}"*`).join(' ');

async function index(db: Executor, kind: Indexed, uuid: string, text: string, placement: Record<string, unknown> = {}): Promise<void> {
  const { table, column } = TABLES[kind];
  const words = searchWords(text).join(' ');
  if (!isSqlite(engineOf(db))) {
    const names = Object.keys(placement);
    const columns = [column, 'words', ...names].join(', ');
    const values = ['?', "to_tsvector('simple', ?)", ...names.map(() => '?')].join(', ');
    const updates = ['words', ...names].map((name) => `${name} = excluded.${name}`).join(', ');
    await db.raw(`insert into ${table} (${columns}) values (${values}) on conflict (${column}) do update set ${updates}`, [uuid, words, ...Object.values(placement)] as Knex.RawBinding[]);
    return;
  }
  const existing = await db(table).where({ [column]: uuid }).first('id');
  let id = existing?.id;
  if (id === undefined) {
    [id] = (await db(table).insert({ [column]: uuid, ...placement })) as number[];
  } else {
    if (Object.keys(placement).length > 0) await db(table).where({ id }).update(placement);
    await db.raw(`delete from ${table}_fts where rowid = ?`, [id]);
  }
  await db.raw(`insert into ${table}_fts (rowid, words) values (?, ?)`, [id, words]);
}

interface TaskPlace {
  uuid: string;
  board_uuid: string;
  state_uuid: string;
  archived_at: string | null;
  updated_at: string;
}

const placementOf = (task: TaskPlace) => ({ board_uuid: task.board_uuid, state_uuid: task.state_uuid, live: task.archived_at === null, updated_at: task.updated_at });

/** Indexes (or re-indexes) a task's words and where it is, in the caller's transaction. */
export const indexTask = (db: Executor, task: TaskPlace & { title: string; description: string }) =>
  index(db, 'task', task.uuid, `${task.title} ${task.description}`, placementOf(task));

/** Keeps where each task is (board, column, live, last change) beside its words: every task change calls it (recordTaskChanges). */
export async function placeTasks(db: Executor, tasks: TaskPlace[]): Promise<void> {
  for (const task of tasks) await db('plan_task_search').where({ task_uuid: task.uuid }).update(placementOf(task));
}

/** Indexes (or re-indexes) a board's key, name and description, in the caller's transaction. */
export const indexBoard = (db: Executor, board: { uuid: string; key: string; name: string; description: string }) =>
  index(db, 'board', board.uuid, `${board.key} ${board.name} ${board.description}`);

/** Indexes (or re-indexes) a project's name and description, in the caller's transaction. */
export const indexProject = (db: Executor, project: { uuid: string; name: string; description: string }) => index(db, 'project', project.uuid, `${project.name} ${project.description}`);

/**
 * The uuids of the objects of a kind whose words match `text`, as a subquery for `whereIn('uuid', …)`. A text
 * with no word (only punctuation) matches nothing.
 */
export function matching(db: Executor, kind: Indexed, text: string): Knex.QueryBuilder {
  const { table, column } = TABLES[kind];
  const words = searchWords(text);
  const query = db(table).select(column);
  if (words.length === 0) return query.whereRaw('1 = 0');
  if (!isSqlite(engineOf(db))) return query.whereRaw("words @@ to_tsquery('simple', ?)", [words.map((word) => `${word}:*`).join(' & ')]);
  return query.whereRaw(`id in (select rowid from ${table}_fts where ${table}_fts match ?)`, [ftsQuery(words)]);
}

/**
 * The uuids of the tasks whose words match `text` among the index entries at a place (a board, a column, live
 * ones only), as a subquery for `whereIn('t.uuid', …)`: the task rows read are then only those at that place.
 */
export function matchingTasksAt(db: Executor, text: string, place: { board?: string; state?: string; live?: boolean }): Knex.QueryBuilder {
  const query = sqliteWordsFirst(db, text) ?? whereTaskWordsMatch(db('plan_task_search as s').select('s.task_uuid'), text, db);
  if (place.board !== undefined) query.where('s.board_uuid', place.board);
  if (place.state !== undefined) query.where('s.state_uuid', place.state);
  if (place.live) query.where('s.live', true);
  return query;
}

/**
 * SQLite: the index entries whose words match, read from the FTS5 table's matches joined to their entries. As
 * `s.id in (select rowid … match ?)` SQLite first copies every match into a temporary index and then looks each
 * one up; joined, each match is looked up as it comes (35 searches of the benchmark's board, alternating: the
 * board's counts 5.8–6.1 → 5.3–5.6 ms, its page 5.5–5.8 → 5.0–5.2 ms). Null on PostgreSQL, or for a text with no word.
 */
function sqliteWordsFirst(db: Executor, text: string): Knex.QueryBuilder | null {
  const words = searchWords(text);
  if (words.length === 0 || !isSqlite(engineOf(db))) return null;
  return db('plan_task_search_fts as f')
    .join('plan_task_search as s', 's.id', 'f.rowid')
    .select('s.task_uuid')
    .whereRaw('plan_task_search_fts match ?', [ftsQuery(words)]);
}

/**
 * Restricts a query on the task index (`plan_task_search as s`: `s.task_uuid`, `s.board_uuid`, `s.state_uuid`,
 * `s.live`, `s.updated_at`) to the entries whose words match `text`: filtering and ordering those reads this narrow table
 * only, not the tasks.
 */
export function whereTaskWordsMatch(query: Knex.QueryBuilder, text: string, engine: Executor): Knex.QueryBuilder {
  const words = searchWords(text);
  if (words.length === 0) return query.whereRaw('1 = 0');
  if (!isSqlite(engineOf(engine))) return query.whereRaw("s.words @@ to_tsquery('simple', ?)", [words.map((word) => `${word}:*`).join(' & ')]);
  return query.whereRaw('s.id in (select rowid from plan_task_search_fts where plan_task_search_fts match ?)', [ftsQuery(words)]);
}
