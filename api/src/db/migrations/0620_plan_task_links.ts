import type { Knex } from 'knex';

/**
 * What tasks link to beyond their own row: the keys they had on boards they left, relations between tasks,
 * participants, explicit subscriptions; the task each change-log row belongs to; and the indexes the task
 * lists filter and sort by.
 */
export async function up(db: Knex): Promise<void> {
  // The task a change belongs to: a task's own changes and those of its relations and participants (issue 19's
  // comments and attachments too), so a task's events and activity are one index range.
  await db.schema.alterTable('plan_changes', (t) => {
    t.string('task_uuid', 36).nullable();
    t.index(['task_uuid', 'id'], 'plan_changes_task');
  });

  // KEY-n a task had on a board it left (move-board): the number stays the task's, so the old key keeps resolving
  // and is never given to another task. Keyed by board rather than by key text: a board's key may change, and
  // every key it had resolves to it (plan_board_keys). No foreign key to the board: the row outlives it.
  await db.schema.createTable('plan_task_keys', (t) => {
    t.string('board_uuid', 36).notNullable();
    t.integer('number').notNullable();
    t.string('task_uuid', 36).notNullable().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('created_at', 32).notNullable();
    t.primary(['board_uuid', 'number']);
    t.index(['task_uuid']);
  });

  // One row per link; the inverse (blocked_by, duplicated_by, relates_to) is read from the target's side.
  await db.schema.createTable('plan_task_relations', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('source_task_uuid', 36).notNullable().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
    t.string('target_task_uuid', 36).notNullable().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
    t.string('relation_type', 16).notNullable();
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.unique(['source_task_uuid', 'relation_type', 'target_task_uuid']);
    t.index(['target_task_uuid', 'relation_type']);
  });

  await db.schema.createTable('plan_task_participants', (t) => {
    t.string('uuid', 36).primary();
    t.string('task_uuid', 36).notNullable().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('created_at', 32).notNullable();
    t.unique(['task_uuid', 'user_uuid']);
    t.index(['user_uuid']);
  });

  // A person's explicit choice about a task's notifications; without a row, owners, participants and the creator
  // are subscribed and everyone else is not.
  await db.schema.createTable('plan_task_subscriptions', (t) => {
    t.string('task_uuid', 36).notNullable().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.boolean('subscribed').notNullable();
    t.string('updated_at', 32).notNullable();
    t.primary(['task_uuid', 'user_uuid']);
    t.index(['user_uuid']);
  });

  // The task lists' orders and filters (board lists, the organization-wide list, me/tasks/). The live tasks of a
  // column and of an owner carry their uuid in the index, so a count filtered by labels or a search (uuid in …)
  // reads the index alone; they replace 0603's (state_uuid, archived_at) and (owner_uuid).
  await db.schema.alterTable('plan_tasks', (t) => {
    t.dropIndex(['state_uuid', 'archived_at']);
    t.dropIndex(['owner_uuid']);
    t.index(['state_uuid', 'archived_at', 'uuid'], 'plan_tasks_state_live');
    t.index(['owner_uuid', 'archived_at', 'uuid'], 'plan_tasks_owner_live');
    t.index(['board_uuid', 'created_at'], 'plan_tasks_board_created');
    t.index(['board_uuid', 'updated_at'], 'plan_tasks_board_updated');
    t.index(['board_uuid', 'due_date'], 'plan_tasks_board_due');
    t.index(['organization_uuid', 'created_at'], 'plan_tasks_org_created');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_tasks', (t) => {
    for (const name of ['plan_tasks_state_live', 'plan_tasks_owner_live', 'plan_tasks_board_created', 'plan_tasks_board_updated', 'plan_tasks_board_due', 'plan_tasks_org_created']) t.dropIndex([], name);
    t.index(['state_uuid', 'archived_at']);
    t.index(['owner_uuid']);
  });
  await db.schema.dropTable('plan_task_subscriptions');
  await db.schema.dropTable('plan_task_participants');
  await db.schema.dropTable('plan_task_relations');
  await db.schema.dropTable('plan_task_keys');
  await db.schema.alterTable('plan_changes', (t) => {
    t.dropIndex([], 'plan_changes_task');
    t.dropColumn('task_uuid');
  });
}
