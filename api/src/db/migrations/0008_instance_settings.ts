import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Operator switches that hold for the whole instance (for example the Plan read-only incident switch).
  await db.schema.createTable('instance_settings', (t) => {
    t.string('key', 100).primary();
    t.text('value').notNullable();
    t.string('updated_at', 32).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('instance_settings');
}
