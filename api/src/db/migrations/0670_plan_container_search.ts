import type { Knex } from 'knex';
import { searchWords } from '../../lib/words.ts';
import { isSqlite } from '../connection.ts';

/**
 * The full-text index of boards (key, name, description) and projects (name, description), built like the
 * tasks' (0621): a tsvector with a GIN index on PostgreSQL; on SQLite a contentless FTS5 table keyed by the
 * INTEGER PRIMARY KEY of a row per object, removed with its object by cascade and a trigger. Filled here for the
 * boards and projects that exist; the search module keeps it current from then on.
 */
const INDEXES = [
  { table: 'plan_board_search', column: 'board_uuid', of: 'plan_boards', text: (row: Record<string, string>) => `${row.key} ${row.name} ${row.description}` },
  { table: 'plan_project_search', column: 'project_uuid', of: 'plan_projects', text: (row: Record<string, string>) => `${row.name} ${row.description}` },
];

export async function up(db: Knex): Promise<void> {
  for (const index of INDEXES) {
    if (!isSqlite(db)) {
      await db.schema.createTable(index.table, (t) => {
        t.string(index.column, 36).primary().references('uuid').inTable(index.of).onDelete('CASCADE');
        t.specificType('words', 'tsvector').notNullable();
      });
      await db.raw(`create index ${index.table}_words on ${index.table} using gin (words)`);
    } else {
      await db.schema.createTable(index.table, (t) => {
        t.increments('id');
        t.string(index.column, 36).notNullable().unique().references('uuid').inTable(index.of).onDelete('CASCADE');
      });
      await db.raw(
        `create virtual table ${index.table}_fts using fts5(words, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'", prefix='2 3')`,
      );
      await db.raw(`create trigger ${index.table}_unindex after delete on ${index.table} begin delete from ${index.table}_fts where rowid = old.id; end`);
    }
    const rows: Record<string, string>[] = await db(index.of).select('*');
    for (const row of rows) {
      const words = searchWords(index.text(row)).join(' ');
      if (!isSqlite(db)) {
        await db.raw(`insert into ${index.table} (${index.column}, words) values (?, to_tsvector('simple', ?))`, [row.uuid, words]);
      } else {
        const [id] = (await db(index.table).insert({ [index.column]: row.uuid })) as number[];
        await db.raw(`insert into ${index.table}_fts (rowid, words) values (?, ?)`, [id, words]);
      }
    }
  }
}

export async function down(db: Knex): Promise<void> {
  for (const index of [...INDEXES].reverse()) {
    if (isSqlite(db)) {
      await db.raw(`drop trigger if exists ${index.table}_unindex`);
      await db.raw(`drop table if exists ${index.table}_fts`);
    }
    await db.schema.dropTable(index.table);
  }
}
