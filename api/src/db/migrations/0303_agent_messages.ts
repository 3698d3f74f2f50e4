import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Messages for agents (CONTRACT §6): from people, systems, other agents and e-mail replies. Undelivered until
  // a health check returns them, the agent marks them read, or its webhook answers 2xx.
  await db.schema.createTable('agent_messages', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('agent_uuid', 36).notNullable().references('uuid').inTable('agents').onDelete('CASCADE');
    t.string('sender_type', 16).notNullable();
    t.string('sender_name', 320).notNullable();
    t.string('sender_user_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('message_type', 16).notNullable();
    t.text('content').notNullable();
    t.text('metadata').nullable();
    t.string('email_message_id', 998).nullable();
    t.boolean('delivered').notNullable().defaultTo(false);
    t.string('delivered_at', 32).nullable();
    t.string('read_at', 32).nullable();
    t.string('expires_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['agent_uuid', 'delivered', 'created_at']);
    t.index(['agent_uuid', 'email_message_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('agent_messages');
}
