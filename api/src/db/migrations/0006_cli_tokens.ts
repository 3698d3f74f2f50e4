import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('cli_tokens', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('expires_at', 32).notNullable();
    t.string('revoked_at', 32).nullable();
    t.string('last_used_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['user_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('cli_tokens');
}
