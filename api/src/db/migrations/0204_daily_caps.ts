import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Per-day counters of the free-plan daily caps (spec Limits, CONTRACT §5): the window is the UTC day.
  await db.schema.createTable('daily_caps', (t) => {
    t.string('bucket', 200).notNullable();
    t.string('day', 10).notNullable(); // YYYY-MM-DD (UTC)
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['bucket', 'day']);
    t.index(['day']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('daily_caps');
}
