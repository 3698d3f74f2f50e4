import type { Knex } from 'knex';
import { isSqlite } from '../connection.ts';

/**
 * Organization labels (the DailyBot client's `/v1/plan/labels/`): a label of no board (`board_uuid` null) that
 * every board of its organization offers, named once among the organization's live ones; `created_by_uuid` says
 * who may edit it besides admins.
 *
 * SQLite cannot drop a NOT NULL constraint in place: the table is rebuilt as SQLite's documentation describes
 * (foreign keys off, outside a transaction; a new table with the same definition but the constraint, the rows
 * copied, the old table dropped and the new one renamed, its indexes made again, the foreign keys checked, all in
 * one transaction), so the task labels pointing at the labels are never touched. Hence no migration-wide
 * transaction here.
 */
export const config = { transaction: false };

export async function up(db: Knex): Promise<void> {
  if (isSqlite(db)) await rebuildWithNullableBoard(db);
  else await db.raw('alter table plan_labels alter column board_uuid drop not null');
  await db.transaction(async (trx) => {
    await trx.schema.alterTable('plan_labels', (t) => {
      t.string('created_by_uuid', 36).nullable();
    });
    await trx.schema.alterTable('plan_labels', (t) => {
      t.unique(['organization_uuid', 'name_key'], { indexName: 'plan_labels_organization_live_name', predicate: trx.whereNull('board_uuid').whereNull('archived_at') });
    });
  });
}

async function rebuildWithNullableBoard(db: Knex): Promise<void> {
  await db.raw('PRAGMA foreign_keys = OFF');
  try {
    await db.transaction(async (trx) => {
      const [table] = (await trx.raw("select sql from sqlite_master where type = 'table' and name = 'plan_labels'")) as { sql: string }[];
      const indexes = (await trx.raw("select sql from sqlite_master where type = 'index' and tbl_name = 'plan_labels' and sql is not null")) as { sql: string }[];
      const column = '`board_uuid` varchar(36) not null';
      if (!table.sql.includes(column)) throw new Error('1001: plan_labels.board_uuid is not the NOT NULL column this migration expects');
      await trx.raw(table.sql.replace('CREATE TABLE `plan_labels`', 'CREATE TABLE `plan_labels_rebuilt`').replace(column, '`board_uuid` varchar(36) null'));
      await trx.raw('insert into plan_labels_rebuilt select * from plan_labels');
      await trx.raw('drop table plan_labels');
      await trx.raw('alter table plan_labels_rebuilt rename to plan_labels');
      for (const index of indexes) await trx.raw(index.sql);
      const broken = (await trx.raw('PRAGMA foreign_key_check')) as unknown[];
      if (broken.length > 0) throw new Error(`1001: ${broken.length} rows break a foreign key after rebuilding plan_labels`);
    });
  } finally {
    await db.raw('PRAGMA foreign_keys = ON');
  }
}

export async function down(db: Knex): Promise<void> {
  await db('plan_labels').whereNull('board_uuid').delete();
  await db.schema.alterTable('plan_labels', (t) => {
    t.dropUnique(['organization_uuid', 'name_key'], 'plan_labels_organization_live_name');
    t.dropColumn('created_by_uuid');
  });
}
