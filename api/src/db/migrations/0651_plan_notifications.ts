import type { Knex } from 'knex';

/** The inbox (one row per person and notification), the organization's routes, and the due-date notices sent. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('plan_notifications', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('recipient_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('kind', 64).notNullable();
    t.string('object_type', 16).notNullable();
    t.string('object_uuid', 36).notNullable();
    // Where the object lives; a board's deletion takes its notifications with it.
    t.string('board_uuid', 36).nullable().references('uuid').inTable('plan_boards').onDelete('CASCADE');
    t.string('project_uuid', 36).nullable().references('uuid').inTable('plan_projects').onDelete('CASCADE');
    t.string('actor_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('agent_name', 128).nullable();
    t.string('title', 500).notNullable();
    t.text('body').notNullable().defaultTo('');
    t.text('data').notNullable().defaultTo('{}');
    t.string('read_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['recipient_uuid', 'created_at']);
    t.index(['recipient_uuid', 'read_at']);
    t.index(['object_uuid']);
  });

  await db.schema.createTable('plan_notification_routes', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('kind', 64).notNullable();
    // A chat channel's external_id (GET /v1/plan/channels/), or "email": the notification's people by e-mail.
    t.string('channel', 200).notNullable();
    // {boards: [uuid], projects: [uuid]}, or null for every org-visible board and project.
    t.text('scope').nullable();
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid', 'kind']);
  });

  // "Due date reached" and its neighbours are sent once per task, due date and kind: the primary key is the
  // claim (a second job run, or a second server, inserts nothing and sends nothing).
  await db.schema.createTable('plan_due_notices', (t) => {
    t.string('task_uuid', 36).notNullable().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
    t.string('due_date', 10).notNullable();
    t.string('kind', 64).notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['task_uuid', 'due_date', 'kind']);
  });
  // The due-date scan reads tasks due within a few days of today.
  await db.schema.alterTable('plan_tasks', (t) => {
    t.index(['due_date'], 'plan_tasks_due_scan_index');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_tasks', (t) => {
    t.dropIndex(['due_date'], 'plan_tasks_due_scan_index');
  });
  await db.schema.dropTable('plan_due_notices');
  await db.schema.dropTable('plan_notification_routes');
  await db.schema.dropTable('plan_notifications');
}
