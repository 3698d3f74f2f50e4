import type { Knex } from 'knex';

/** A label's description, which the DailyBot client sends when it creates or edits a label ('' when none). */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_labels', (t) => {
    t.text('description').notNullable().defaultTo('');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_labels', (t) => {
    t.dropColumn('description');
  });
}
