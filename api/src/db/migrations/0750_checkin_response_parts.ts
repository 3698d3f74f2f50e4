import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Lines merged into a day's response (co-authored agent reports, terminal stand-up updates) are appended here,
  // one row per report and question, instead of rewriting the response's whole `answers`: a report's write cost
  // stays the same all day. Readers fold the parts into `answers` (features/checkins/response-parts.ts); a full
  // write of the response (an edit, a question change) folds them back in and deletes them.
  await db.schema.createTable('checkin_response_parts', (t) => {
    t.bigIncrements('id');
    t.string('response_uuid', 36).notNullable().references('uuid').inTable('checkin_responses').onDelete('CASCADE');
    t.string('question_uuid', 36).notNullable();
    // The question as the response's snapshot shows it (index and text) when the part was written.
    t.integer('question_index').notNullable();
    t.text('question').notNullable();
    t.text('lines').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['response_uuid', 'question_uuid']);
  });
  await db.schema.alterTable('checkin_responses', (t) => {
    // The questions (fingerprint) the stored answers and flags were computed with; parts are appended only while
    // the check-in's questions still have it. Null on rows written before parts existed: the next merge folds.
    t.string('parts_basis', 64).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('checkin_response_parts');
  await db.schema.alterTable('checkin_responses', (t) => t.dropColumn('parts_basis'));
}
