import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // One row per firing of a scheduled job (jobs/index.ts): the process whose insert lands runs it, every other
  // process sharing the database skips it, so each firing runs once however many processes there are.
  await db.schema.createTable('job_firings', (t) => {
    t.string('job', 100).notNullable();
    t.string('fired_at', 32).notNullable(); // the scheduled minute, ISO 8601 UTC
    t.string('claimed_by', 64).notNullable(); // host:pid:id of the process that ran it
    t.string('started_at', 32).notNullable();
    t.string('finished_at', 32).nullable();
    t.text('error').nullable();
    t.primary(['job', 'fired_at']);
    t.index(['fired_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('job_firings');
}
