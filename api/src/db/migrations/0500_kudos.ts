import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Company values (CONTRACT §7): the organization's values a kudos can name; `value` is the name people see.
  await db.schema.createTable('company_values', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('value', 100).notNullable();
    t.string('emoji', 32).nullable();
    t.string('description', 500).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['organization_uuid', 'value']);
  });

  // A kudos: one post by one giver. The giver is stored for anonymous kudos too (the daily limit, the giver's own
  // list), and never shown for them.
  await db.schema.createTable('kudos', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('giver_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.text('content').notNullable();
    t.string('company_value_uuid', 36).nullable().references('uuid').inTable('company_values').onDelete('SET NULL');
    t.boolean('is_anonymous').notNullable().defaultTo(false);
    t.integer('boosts_count').notNullable().defaultTo(0);
    t.string('created_at', 32).notNullable();
    t.index(['organization_uuid', 'created_at']);
    t.index(['giver_uuid', 'created_at']);
  });

  // The people a kudos reached, teams already expanded (the giver never among them). A kudos to a team writes
  // one row per member, so the table keeps two indexes only: by kudos (the primary key) and by receiver.
  await db.schema.createTable('kudos_receivers', (t) => {
    t.string('kudos_uuid', 36).notNullable().references('uuid').inTable('kudos').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('created_at', 32).notNullable();
    t.primary(['kudos_uuid', 'user_uuid']);
    t.index(['user_uuid', 'created_at']);
  });

  // The teams a kudos named, as named (their members are in kudos_receivers).
  await db.schema.createTable('kudos_teams', (t) => {
    t.string('kudos_uuid', 36).notNullable().references('uuid').inTable('kudos').onDelete('CASCADE');
    t.string('team_uuid', 36).notNullable().references('uuid').inTable('teams').onDelete('CASCADE');
    t.primary(['kudos_uuid', 'team_uuid']);
  });

  // Boosts ("plus kudos"): once per person per kudos.
  await db.schema.createTable('kudos_boosts', (t) => {
    t.string('kudos_uuid', 36).notNullable().references('uuid').inTable('kudos').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('organization_uuid', 36).notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['kudos_uuid', 'user_uuid']);
    t.index(['organization_uuid', 'created_at']);
  });

  // Per-organization kudos settings; an organization without a row has the defaults.
  await db.schema.createTable('kudos_settings', (t) => {
    t.string('organization_uuid', 36).primary().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.integer('daily_limit').notNullable();
    t.boolean('chat_announcements').notNullable().defaultTo(true);
    t.string('chat_channel', 200).nullable();
    t.string('updated_at', 32).notNullable();
  });

  // Kudos given per giver and local day (the organization's time zone): one upsert counts and checks the daily
  // limit exactly, on SQLite and on PostgreSQL under concurrent requests alike.
  await db.schema.createTable('kudos_daily_counts', (t) => {
    t.string('giver_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('day', 10).notNullable();
    t.integer('count').notNullable();
    t.primary(['giver_uuid', 'day']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['kudos_daily_counts', 'kudos_settings', 'kudos_boosts', 'kudos_teams', 'kudos_receivers', 'kudos', 'company_values']) {
    await db.schema.dropTable(table);
  }
}
