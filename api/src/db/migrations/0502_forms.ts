import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Forms (CONTRACT §7, §12). `states` and `transitions` (JSON) are the form's approval workflow: state names,
  // which is initial and which are final, and who may move a response from one state to another.
  await db.schema.createTable('forms', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('description').nullable();
    t.string('form_type', 16).notNullable(); // standard | approval | workflow
    t.boolean('is_public').notNullable().defaultTo(true);
    t.boolean('is_anonymous').notNullable().defaultTo(false);
    t.boolean('is_archived').notNullable().defaultTo(false);
    t.string('archived_at', 32).nullable();
    t.text('states').notNullable().defaultTo('[]');
    t.text('transitions').notNullable().defaultTo('[]');
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid', 'is_archived']);
  });

  await db.schema.createTable('form_owners', (t) => {
    t.string('form_uuid', 36).notNullable().references('uuid').inTable('forms').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.primary(['form_uuid', 'user_uuid']);
    t.index(['user_uuid']);
  });

  // The same columns as checkin_questions: both lists are kept by the same code.
  await db.schema.createTable('form_questions', (t) => {
    t.string('uuid', 36).primary();
    t.string('form_uuid', 36).notNullable().references('uuid').inTable('forms').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('question').notNullable();
    t.string('short_question', 512).nullable();
    t.string('question_type', 32).notNullable();
    t.boolean('required').notNullable().defaultTo(true);
    t.boolean('is_blocker').notNullable().defaultTo(false);
    t.text('choices').notNullable().defaultTo('[]');
    t.text('extras').notNullable().defaultTo('{}');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['form_uuid']);
  });

  // The author is kept for anonymous forms too (their own list, edits) and never shown for them.
  await db.schema.createTable('form_responses', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('form_uuid', 36).notNullable().references('uuid').inTable('forms').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.text('answers').notNullable();
    t.string('current_state', 64).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['form_uuid', 'created_at']);
    t.index(['form_uuid', 'user_uuid']);
  });

  await db.schema.createTable('form_response_history', (t) => {
    t.string('uuid', 36).primary();
    t.string('response_uuid', 36).notNullable().references('uuid').inTable('form_responses').onDelete('CASCADE');
    t.string('from_state', 64).nullable();
    t.string('to_state', 64).notNullable();
    t.string('actor_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.text('note').nullable();
    t.string('created_at', 32).notNullable();
    t.index(['response_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['form_response_history', 'form_responses', 'form_questions', 'form_owners', 'forms']) await db.schema.dropTable(table);
}
