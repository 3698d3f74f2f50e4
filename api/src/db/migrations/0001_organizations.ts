import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organizations', (t) => {
    t.string('uuid', 36).primary();
    t.string('name', 200).notNullable();
    t.string('slug', 64).notNullable().unique();
    t.string('timezone', 64).notNullable().defaultTo('UTC');
    t.string('plan', 16).notNullable().defaultTo('free');
    t.boolean('plan_beta_enabled').notNullable().defaultTo(false);
    t.boolean('exchange_enabled').notNullable().defaultTo(false);
    t.string('image', 2048).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('organizations');
}
