import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('users', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('email', 320).notNullable();
    t.string('first_name', 150).notNullable().defaultTo('');
    t.string('last_name', 150).notNullable().defaultTo('');
    t.string('role', 16).notNullable().defaultTo('member');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.string('timezone', 64).nullable();
    t.string('occupation', 200).nullable();
    t.string('image', 2048).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    // One person may belong to several organizations (the CLI sign-in asks which); within one, an address is unique.
    t.unique(['organization_uuid', 'email']);
    t.index(['email']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('users');
}
