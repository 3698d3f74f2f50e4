import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Agent self-registration challenges (CONTRACT §6, §12): single use, short-lived; only the answer's hash is kept.
  await db.schema.createTable('agent_registration_challenges', (t) => {
    t.string('uuid', 36).primary();
    t.string('answer_hash', 64).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('used_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('agent_registration_challenges');
}
