import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Organization webhooks (CONTRACT §7): the signing secret and the bearer are stored encrypted (AES-256-GCM).
  await db.schema.createTable('webhook_subscriptions', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.text('hook_url').notNullable();
    t.string('name', 200).notNullable();
    t.text('subscriptions').notNullable(); // JSON array of event names
    t.text('subscribed_objects').notNullable(); // JSON array of object uuids; empty = every object
    t.text('secret_encrypted').notNullable();
    t.boolean('secret_generated').notNullable().defaultTo(false);
    t.text('bearer_encrypted').nullable();
    t.string('disabled_at', 32).nullable();
    t.string('disabled_reason', 200).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_subscriptions');
}
