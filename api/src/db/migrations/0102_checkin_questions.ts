import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('checkin_questions', (t) => {
    t.string('uuid', 36).primary();
    t.string('checkin_uuid', 36).notNullable().references('uuid').inTable('checkins').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('question').notNullable();
    t.string('short_question', 512).nullable();
    t.string('question_type', 32).notNullable();
    t.boolean('required').notNullable().defaultTo(true);
    t.boolean('is_blocker').notNullable().defaultTo(false);
    t.text('choices').notNullable().defaultTo('[]');
    // variations and logic, kept as the client sent them.
    t.text('extras').notNullable().defaultTo('{}');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['checkin_uuid', 'position']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('checkin_questions');
}
