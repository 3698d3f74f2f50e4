import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // One row per (bucket, window): bucket names the scope and the caller, window_start is the window's first
  // second. Rows live in the database so budgets hold across restarts and across API processes.
  await db.schema.createTable('rate_limit_counters', (t) => {
    t.string('bucket', 200).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['bucket', 'window_start']);
    t.index(['window_start']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limit_counters');
}
