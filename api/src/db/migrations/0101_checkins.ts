import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Check-ins (stand-ups, CONTRACT §7, §12). Columns the service reasons about are columns; the remaining
  // client settings (reminders, tone, intro/outro…) are kept verbatim in `settings`.
  await db.schema.createTable('checkins', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('is_archived').notNullable().defaultTo(false);
    t.string('archived_at', 32).nullable();
    t.string('frequency_type', 32).notNullable().defaultTo('daily');
    // ISO weekdays 1 (Monday) … 7 (Sunday), comma-separated.
    t.string('days', 32).notNullable();
    t.string('time', 5).notNullable();
    t.string('timezone', 64).notNullable();
    t.string('start_on', 10).nullable();
    t.string('end_on', 10).nullable();
    t.boolean('is_anonymous').notNullable().defaultTo(false);
    t.boolean('allow_past_responses').notNullable().defaultTo(false);
    t.boolean('allow_future_responses').notNullable().defaultTo(false);
    t.string('template_uuid', 36).nullable();
    t.text('report_channels').notNullable().defaultTo('[]');
    t.text('settings').notNullable().defaultTo('{}');
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid', 'is_archived']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('checkins');
}
