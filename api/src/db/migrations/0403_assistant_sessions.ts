import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Conversations with the command-line assistant (POST /v1/cli/chat/completions/), so a follow-up question has
  // the earlier turns. A session belongs to one person of one organization.
  await db.schema.createTable('assistant_sessions', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['user_uuid']);
    t.index(['updated_at']);
  });
  await db.schema.createTable('assistant_turns', (t) => {
    t.string('uuid', 36).primary();
    t.string('session_uuid', 36).notNullable().references('uuid').inTable('assistant_sessions').onDelete('CASCADE');
    t.string('role', 16).notNullable();
    t.text('content').notNullable();
    // What the assistant took the question to be about (pending_checkins, blockers, …): a follow-up reuses it.
    t.string('classification', 64).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['session_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('assistant_turns');
  await db.schema.dropTable('assistant_sessions');
}
