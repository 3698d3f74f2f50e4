import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('mood_entries', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('date', 10).notNullable();
    t.integer('score').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['user_uuid', 'date']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('mood_entries');
}
