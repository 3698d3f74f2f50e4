import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // One-time sign-in codes of the command-line client (CONTRACT §4): 10 minutes, 5 tries. Keyed by e-mail, not
  // by user, so an address without an account gets a row too (the same work either way: no enumeration). Only
  // a keyed hash of the code is kept.
  await db.schema.createTable('cli_sign_in_codes', (t) => {
    t.string('uuid', 36).primary();
    t.string('email', 320).notNullable();
    t.string('code_hash', 64).notNullable();
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.string('expires_at', 32).notNullable();
    // Set when the code signs someone in, when it is tried too often, or when a newer code replaces it.
    t.string('spent_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['email']);
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('cli_sign_in_codes');
}
