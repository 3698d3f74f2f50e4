import type { Knex } from 'knex';

/**
 * Tasks (CONTRACT §9 Task shape) and their labels. States and labels count them (state_in_use, label_in_use);
 * the task endpoints extend these tables rather than replace them.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('plan_tasks', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('board_uuid', 36).notNullable().references('uuid').inTable('plan_boards').onDelete('CASCADE');
    // KEY-n: the board's key and this number (plan_boards.next_task_number when created).
    t.integer('number').notNullable();
    t.string('title', 500).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('state_uuid', 36).notNullable().references('uuid').inTable('plan_states');
    t.string('owner_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.integer('priority').nullable();
    t.double('estimate').nullable();
    t.string('start_date', 10).nullable();
    t.string('due_date', 10).nullable();
    t.string('parent_task_uuid', 36).nullable().references('uuid').inTable('plan_tasks').onDelete('SET NULL');
    t.string('milestone_uuid', 36).nullable().references('uuid').inTable('plan_milestones').onDelete('SET NULL');
    t.integer('version').notNullable().defaultTo(1);
    // Fractional index (fractional-indexing) ordering the tasks of one column.
    t.string('rank', 64).notNullable();
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.string('completed_at', 32).nullable();
    t.string('archived_at', 32).nullable();
    t.unique(['board_uuid', 'number']);
    t.index(['board_uuid', 'state_uuid', 'rank']);
    t.index(['state_uuid', 'archived_at']);
    t.index(['parent_task_uuid']);
    t.index(['owner_uuid']);
    t.index(['milestone_uuid']);
  });

  await db.schema.createTable('plan_task_labels', (t) => {
    t.string('task_uuid', 36).notNullable().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
    t.string('label_uuid', 36).notNullable().references('uuid').inTable('plan_labels').onDelete('CASCADE');
    t.primary(['task_uuid', 'label_uuid']);
    t.index(['label_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_task_labels');
  await db.schema.dropTable('plan_tasks');
}
