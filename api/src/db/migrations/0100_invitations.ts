import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // One row per invited person (CONTRACT §3 invite-user); resending updates the row and enqueues another e-mail.
  await db.schema.createTable('invitations', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('invited_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('email', 320).notNullable();
    t.string('role', 16).notNullable();
    t.text('team_uuids').notNullable().defaultTo('[]');
    // Only the SHA-256 of the acceptance token is kept.
    t.string('token_hash', 64).notNullable().unique();
    t.integer('sent_count').notNullable().defaultTo(1);
    t.string('last_sent_at', 32).notNullable();
    t.string('accepted_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['user_uuid']);
    t.index(['organization_uuid', 'email']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('invitations');
}
