import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('api_keys', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('owner_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('name', 200).notNullable();
    t.string('kind', 16).notNullable().defaultTo('personal');
    // Only the SHA-256 of the secret is kept; the suffix is the one part of it shown after creation.
    t.string('secret_hash', 64).notNullable().unique();
    t.string('key_suffix', 4).notNullable();
    t.text('scopes').notNullable().defaultTo('[]');
    t.string('expires_at', 32).nullable();
    t.string('last_used_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid', 'owner_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('api_keys');
}
