import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Discord (issue 35): a bot cannot look a person up by e-mail, so each person links their account once. A link
  // asked for in Discord (`/rollcall link`) is a one-time token (its SHA-256 here, never the token), valid 15
  // minutes, that the signed-in person confirms in the web app (POST /v1/me/chat-accounts/).
  await db.schema.createTable('chat_link_requests', (t) => {
    t.string('token_hash', 64).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('platform', 32).notNullable();
    t.string('external_id', 64).notNullable();
    t.string('external_name', 100).nullable();
    t.string('expires_at', 32).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['expires_at']);
  });
  // Linked accounts persist (unlike chat_people, a lookup's daily cache): one platform account per person and one
  // person per account, in each organization.
  await db.schema.createTable('chat_linked_accounts', (t) => {
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('platform', 32).notNullable();
    t.string('external_id', 64).notNullable();
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('external_name', 100).nullable();
    t.string('linked_at', 32).notNullable();
    t.primary(['organization_uuid', 'platform', 'external_id']);
    t.unique(['organization_uuid', 'platform', 'user_uuid']);
    t.index(['user_uuid']);
  });
  // An answer given over several forms (a Discord modal holds at most 5 inputs): the parts submitted so far, kept
  // until the last part saves the whole answer through the responses service (or a day passes).
  await db.schema.createTable('chat_answer_drafts', (t) => {
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('checkin_uuid', 36).notNullable();
    t.string('run_date', 10).notNullable();
    t.string('organization_uuid', 36).notNullable();
    t.text('values').notNullable(); // JSON {"q.<question uuid>": [values]}
    t.string('updated_at', 32).notNullable();
    t.primary(['user_uuid', 'checkin_uuid', 'run_date']);
    t.index(['updated_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('chat_answer_drafts');
  await db.schema.dropTable('chat_linked_accounts');
  await db.schema.dropTable('chat_link_requests');
}
