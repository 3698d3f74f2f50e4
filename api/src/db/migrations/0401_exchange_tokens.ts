import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Exchange tokens (CONTRACT §4): an admin's 300-second token to act as one member; only its SHA-256 is kept.
  await db.schema.createTable('exchange_tokens', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('issued_by_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('issued_by_credential_uuid', 36).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('expires_at', 32).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('exchange_tokens');
}
