import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // The free-plan daily caps become budgets like the hourly ones (db/counters.ts), in rate_limit_counters with a
  // window of one UTC day: window_start is the day's 00:00 UTC in Unix seconds. Counts of today carry over.
  const rows: { bucket: string; day: string; count: number }[] = await db('daily_caps').select('bucket', 'day', 'count');
  for (const row of rows) {
    const windowStart = Date.parse(`${row.day}T00:00:00Z`) / 1000;
    if (!Number.isFinite(windowStart)) continue;
    await db('rate_limit_counters').insert({ bucket: row.bucket, window_start: windowStart, count: row.count }).onConflict(['bucket', 'window_start']).merge();
  }
  await db.schema.dropTable('daily_caps');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.createTable('daily_caps', (t) => {
    t.string('bucket', 200).notNullable();
    t.string('day', 10).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['bucket', 'day']);
    t.index(['day']);
  });
}
