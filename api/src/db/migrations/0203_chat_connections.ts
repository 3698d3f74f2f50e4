import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // One chat platform per organization (CONTRACT §10). The bot token or incoming-webhook URL is a secret:
  // stored encrypted, never shown back.
  await db.schema.createTable('chat_connections', (t) => {
    t.string('organization_uuid', 36).primary().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('platform', 32).notNullable(); // slack | microsoft_teams | discord | google_chat
    t.text('credentials_encrypted').notNullable();
    t.string('channel_name', 200).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
  });
  // A message sent with POST /v1/send-message/; `refs` (JSON) keeps what each platform answered (Slack channel
  // and ts, Discord message id) so the message can be edited by bot_message_id.
  await db.schema.createTable('chat_messages', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('platform', 32).notNullable();
    t.text('refs').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('chat_messages');
  await db.schema.dropTable('chat_connections');
}
