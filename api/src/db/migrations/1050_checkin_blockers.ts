import type { Knex } from 'knex';

/**
 * Blockers followed up (issue 36): an answer to a blocker question opens one (features/checkins/blockers.ts); it
 * stays open, carried into the person's next prompts, until they or a manager resolve it. `alerted_at` makes the
 * managers' note about a blocker left open `blocker_alert_days` go once. Existing multiple-choice questions keep
 * taking several picks.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('checkin_blockers', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable();
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('question_uuid', 36).notNullable(); // the question may be deleted later: no foreign key
    t.string('question', 2000).notNullable(); // its text when the blocker was reported
    t.string('response_uuid', 36).nullable(); // the response that reported it (null once that response is deleted)
    t.text('text').notNullable();
    t.string('opened_on', 10).notNullable(); // the local day of the answer that reported it
    t.string('opened_at', 32).notNullable();
    t.string('resolved_on', 10).nullable();
    t.string('resolved_at', 32).nullable();
    t.string('resolved_by_uuid', 36).nullable();
    t.string('alerted_at', 32).nullable();
    t.index(['checkin_uuid', 'resolved_at']);
    t.index(['user_uuid', 'resolved_at']);
    t.index(['response_uuid']);
    t.index(['resolved_at', 'alerted_at', 'opened_on']);
  });
  // Multiple choice now picks one choice unless `multiple` says several: the questions written before took
  // several, and keep doing so.
  for (const table of ['checkin_questions', 'form_questions']) {
    const rows: { uuid: string; extras: unknown }[] = await db(table).where({ question_type: 'multiple_choice' }).select('uuid', 'extras');
    for (const row of rows) {
      const extras = typeof row.extras === 'string' && row.extras !== '' ? JSON.parse(row.extras) : (row.extras ?? {});
      await db(table).where({ uuid: row.uuid }).update({ extras: JSON.stringify({ ...extras, multiple: true }) });
    }
  }
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('checkin_blockers');
}
