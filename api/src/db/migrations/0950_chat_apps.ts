import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Answering in chat (issue 35). A connection that can take requests from its platform (a signing secret in its
  // sealed credentials), and the platform's workspace it belongs to: learned from the bot token the first time
  // a request comes (Slack `auth.test`), so a request from another workspace is refused.
  await db.schema.alterTable('chat_connections', (t) => {
    t.boolean('can_receive').notNullable().defaultTo(false);
    t.string('external_team_id', 64).nullable();
    t.index(['platform', 'external_team_id']);
  });
  // People matched to their account on the platform by e-mail (lower case; Slack users.lookupByEmail), cached:
  // `found` false lists them as not found (runs, admin screen) until the next lookup. An incoming request finds
  // its person by `external_id`, then the organization's user by that e-mail.
  await db.schema.createTable('chat_people', (t) => {
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('platform', 32).notNullable();
    t.string('email', 254).notNullable();
    t.string('external_id', 64).nullable();
    t.boolean('found').notNullable();
    t.string('looked_up_at', 32).notNullable();
    t.primary(['organization_uuid', 'platform', 'email']);
    t.index(['organization_uuid', 'platform', 'external_id']);
  });
  // Requests already taken (a signature, a platform's event id): a replayed request does nothing. Kept an hour
  // (a signature older than 5 minutes is refused anyway); the hourly job prunes them.
  await db.schema.createTable('chat_request_nonces', (t) => {
    t.string('key', 100).primary();
    t.string('seen_at', 32).notNullable();
    t.index(['seen_at']);
  });
  // Answering a prompt in the conversation, one question at a time: the answers given so far and the next
  // question. Saved through the responses service after the last one, or as far as it got when the report goes.
  await db.schema.createTable('checkin_chat_conversations', (t) => {
    t.string('prompt_uuid', 36).primary().references('uuid').inTable('checkin_prompts').onDelete('CASCADE');
    t.string('organization_uuid', 36).notNullable();
    t.string('checkin_uuid', 36).notNullable();
    t.string('user_uuid', 36).notNullable();
    t.string('run_date', 10).notNullable();
    t.integer('position').notNullable();
    t.text('answers').notNullable(); // JSON {question uuid: response}
    t.string('updated_at', 32).notNullable();
    t.index(['checkin_uuid', 'run_date']);
    t.index(['user_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('checkin_chat_conversations');
  await db.schema.dropTable('chat_request_nonces');
  await db.schema.dropTable('chat_people');
  await db.schema.alterTable('chat_connections', (t) => {
    t.dropIndex(['platform', 'external_team_id']);
    t.dropColumn('external_team_id');
    t.dropColumn('can_receive');
  });
}
