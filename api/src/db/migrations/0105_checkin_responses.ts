import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // One response per user, check-in and local day (the check-in's time zone). `answers` is a JSON snapshot
  // [{uuid, index, question, response}] so history reads need no join and survive question edits.
  await db.schema.createTable('checkin_responses', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('response_date', 10).notNullable();
    t.text('answers').notNullable();
    t.boolean('response_completed').notNullable().defaultTo(false);
    t.boolean('has_issue').notNullable().defaultTo(false);
    t.integer('last_question_index').nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['checkin_uuid', 'user_uuid', 'response_date']);
    // History reads: one check-in, a date range, newest first.
    t.index(['checkin_uuid', 'response_date']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('checkin_responses');
}
