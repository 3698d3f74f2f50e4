import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Each person's own settings (issue 36): the language prompts, reminders, reports and the answer page speak to
  // them in (null: not chosen, English in messages), the public-holiday calendar that wins over their check-ins'
  // (an ISO 3166 country code, optionally with a region: ES, ES-MD), and which messages they want (JSON).
  await db.schema.alterTable('users', (t) => {
    t.string('language', 8).nullable();
    t.string('holiday_calendar', 16).nullable();
    t.text('notifications').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('users', (t) => {
    t.dropColumn('notifications');
    t.dropColumn('holiday_calendar');
    t.dropColumn('language');
  });
}
