import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Agents (CONTRACT §6): created on first report or health check, matched on the exact name per organization.
  // `slug` names the agent's inbox (<agent-slug>.<org-slug>@INBOUND_EMAIL_DOMAIN). The webhook secret is stored
  // encrypted (AES-256-GCM). Self-registered agents carry the hash of their claim token until claimed.
  await db.schema.createTable('agents', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('name', 128).notNullable();
    t.string('slug', 64).notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.string('status', 16).nullable();
    t.string('status_message', 1000).nullable();
    t.string('last_check_at', 32).nullable();
    t.text('webhook_url').nullable();
    t.text('webhook_secret_encrypted').nullable();
    t.string('webhook_registered_at', 32).nullable();
    t.string('claim_token_hash', 64).nullable();
    t.string('contact_email', 320).nullable();
    t.string('claimed_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['organization_uuid', 'name']);
    t.unique(['organization_uuid', 'slug']);
    t.index(['claim_token_hash']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('agents');
}
