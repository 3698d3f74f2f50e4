import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // E-mail sent by agents: the hourly per-agent limit counts these rows, and replies thread to them by Message-ID.
  await db.schema.createTable('agent_emails', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('agent_uuid', 36).notNullable().references('uuid').inTable('agents').onDelete('CASCADE');
    t.string('message_id', 998).notNullable();
    t.string('subject', 512).notNullable();
    t.text('recipients').notNullable();
    t.text('metadata').nullable();
    t.string('delivery_uuid', 36).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['agent_uuid', 'created_at']);
    t.index(['message_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('agent_emails');
}
