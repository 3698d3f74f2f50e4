import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('teams', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid', 'name']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('teams');
}
