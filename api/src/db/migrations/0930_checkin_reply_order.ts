import type { Knex } from 'knex';

/**
 * Answering by e-mail keeps the newest answer (features/checkin-runs/email-replies.ts): a prompt remembers when the
 * reply it last saved was written (its Date header, never later than its arrival) and when it was saved, so an
 * older reply, replayed or delayed, no longer overwrites a newer reply or an answer given on the web.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('checkin_prompts', (t) => {
    t.string('reply_written_at', 32).nullable();
    t.string('reply_saved_at', 32).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('checkin_prompts', (t) => {
    t.dropColumn('reply_written_at');
    t.dropColumn('reply_saved_at');
  });
}
