import type { Knex } from 'knex';

/**
 * Where each indexed task is, beside its words: its board, whether it is live, and when it last changed. The
 * search across the organization (GET /v1/plan/search/) then filters and orders the matching entries of this
 * narrow table, reading only the page's tasks: a word found in 10,000 tasks no longer reads 10,000 task rows.
 * The task writers keep it current (search/index.ts, from recordTaskChanges); filled here for existing tasks.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_task_search', (t) => {
    t.string('board_uuid', 36).nullable();
    t.boolean('live').notNullable().defaultTo(true);
    t.string('updated_at', 32).nullable();
  });
  await db.raw(`update plan_task_search set
    board_uuid = (select t.board_uuid from plan_tasks t where t.uuid = plan_task_search.task_uuid),
    live = (select t.archived_at is null from plan_tasks t where t.uuid = plan_task_search.task_uuid),
    updated_at = (select t.updated_at from plan_tasks t where t.uuid = plan_task_search.task_uuid)`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_task_search', (t) => {
    t.dropColumn('board_uuid');
    t.dropColumn('live');
    t.dropColumn('updated_at');
  });
}
