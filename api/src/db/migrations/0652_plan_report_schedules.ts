import type { Knex } from 'knex';

/** Scheduled reports: when (ISO weekdays, HH:MM, an IANA zone), where (a chat channel or e-mail), about what. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('plan_report_schedules', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('kind', 16).notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('weekdays').notNullable();
    t.string('time', 5).notNullable();
    t.string('timezone', 64).notNullable();
    t.string('channel', 200).nullable();
    t.text('email_recipients').nullable();
    t.text('scope').nullable();
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('last_run_at', 32).nullable();
    // The next instant it is due; the scheduler claims a due schedule by moving this forward in the transaction
    // that enqueues the report, so a report is sent once however many minutes (or days) were missed.
    t.string('next_run_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid']);
    t.index(['next_run_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_report_schedules');
}
