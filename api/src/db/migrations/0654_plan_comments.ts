import type { Knex } from 'knex';

/**
 * Comments on Plan tasks: replies one level deep (parent_uuid names a top-level comment of the same task). A
 * task's deletion removes its comments (and the service removes their files and reactions first).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('plan_comments', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('task_uuid', 36).notNullable().references('uuid').inTable('plan_tasks').onDelete('CASCADE');
    t.string('parent_uuid', 36).nullable().references('uuid').inTable('plan_comments').onDelete('CASCADE');
    t.string('author_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('agent_name', 128).nullable();
    t.text('body').notNullable();
    // The people the body mentions who may read the task (a JSON array of user uuids), as of the last edit.
    t.text('mentions').notNullable().defaultTo('[]');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.string('edited_at', 32).nullable();
    t.index(['task_uuid', 'created_at']);
    t.index(['parent_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_comments');
}
