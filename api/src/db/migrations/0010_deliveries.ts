import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // The durable outbox (CONTRACT §10): one row per message to send (e-mail, webhook, chat), written in the
  // same transaction as the change that causes it, sent later by the delivery workers.
  await db.schema.createTable('deliveries', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).nullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('channel', 32).notNullable(); // email | webhook | agent_webhook | chat
    t.string('kind', 100).notNullable(); // what caused it, e.g. invitation, cli_code, agent.message, kudos.posted
    t.text('destination').notNullable(); // e-mail address(es) or URL; never a secret
    t.text('payload').notNullable(); // JSON: the message or request body
    t.string('status', 16).notNullable().defaultTo('pending'); // pending | delivered | failed | cancelled
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('next_attempt_at', 32).notNullable();
    t.text('last_error').nullable();
    t.integer('last_status_code').nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.string('delivered_at', 32).nullable();
    t.index(['status', 'next_attempt_at']);
    t.index(['organization_uuid', 'status']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('deliveries');
}
