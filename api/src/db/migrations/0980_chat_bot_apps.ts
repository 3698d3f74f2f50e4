import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Microsoft Teams connected as a Bot Framework bot (issue 35): proactive messages go to the Bot Connector service
  // the platform's activities name (`serviceUrl`, learned from the first verified activity), and people are looked
  // up by e-mail in the roster of the team the bot was installed in (its conversation id, learned the same way).
  await db.schema.alterTable('chat_connections', (t) => {
    t.string('service_url', 512).nullable();
    t.string('roster_id', 256).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('chat_connections', (t) => {
    t.dropColumn('roster_id');
    t.dropColumn('service_url');
  });
}
