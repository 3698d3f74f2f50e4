import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Every attempt of every delivery: what a self-hoster reads to see why something did not arrive.
  await db.schema.createTable('delivery_attempts', (t) => {
    t.string('uuid', 36).primary();
    t.string('delivery_uuid', 36).notNullable().references('uuid').inTable('deliveries').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.string('outcome', 16).notNullable(); // delivered | retry | failed | gone
    t.integer('status_code').nullable();
    t.text('error').nullable();
    t.integer('duration_ms').notNullable();
    t.string('started_at', 32).notNullable();
    t.index(['delivery_uuid', 'attempt']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('delivery_attempts');
}
