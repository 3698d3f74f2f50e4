import type { Knex } from 'knex';
import { isSqlite } from '../connection.ts';

/**
 * The full-text index of tasks (features/plan/search/): the words of a task's title and description, as the
 * search module normalizes them (lower case, split on anything but letters, marks and digits), so both engines
 * index the same words. PostgreSQL: a tsvector per task with a GIN index. SQLite: an FTS5 table holding only
 * the index (contentless, rows deletable), keyed by plan_task_search.id; deleting a task (or its whole board)
 * removes its row here by cascade, and the trigger removes its words.
 */
export async function up(db: Knex): Promise<void> {
  if (!isSqlite(db)) {
    await db.schema.createTable('plan_task_search', (t) => {
      t.string('task_uuid', 36).primary().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
      t.specificType('words', 'tsvector').notNullable();
    });
    await db.raw('create index plan_task_search_words on plan_task_search using gin (words)');
    return;
  }
  await db.schema.createTable('plan_task_search', (t) => {
    // INTEGER PRIMARY KEY: the FTS5 rowid, stable across VACUUM (an implicit rowid is not).
    t.increments('id');
    t.string('task_uuid', 36).notNullable().unique().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
  });
  // unicode61 with the categories the module splits on, no diacritics folding (PostgreSQL's simple configuration
  // keeps them too); prefix indexes for the 2- and 3-character prefixes a short search text asks for.
  await db.raw(
    "create virtual table plan_task_search_fts using fts5(words, content='', contentless_delete=1, tokenize=\"unicode61 remove_diacritics 0 categories 'L* N* Co M*'\", prefix='2 3')",
  );
  await db.raw('create trigger plan_task_search_unindex after delete on plan_task_search begin delete from plan_task_search_fts where rowid = old.id; end');
}

export async function down(db: Knex): Promise<void> {
  if (isSqlite(db)) {
    await db.raw('drop trigger if exists plan_task_search_unindex');
    await db.raw('drop table if exists plan_task_search_fts');
  }
  await db.schema.dropTable('plan_task_search');
}
