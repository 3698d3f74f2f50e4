import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Organization events (CONTRACT §7: followups.response.completed, kudos.posted, …), written in the same
  // transaction as the change; the webhook dispatcher turns each into deliveries for matching subscriptions.
  await db.schema.createTable('organization_events', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('event', 100).notNullable();
    t.text('payload').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('dispatched_at', 32).nullable();
    t.index(['dispatched_at', 'created_at']);
    t.index(['organization_uuid', 'event']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('organization_events');
}
