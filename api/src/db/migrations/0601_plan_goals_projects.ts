import type { Knex } from 'knex';

/** Goals, projects and what hangs off a project: members, milestones, updates. */
export async function up(db: Knex): Promise<void> {
  // `name_key` is the name as compared for conflicts (trimmed, lower case). A goal's name is unique among live
  // goals; a project's among every project, archived ones included (spec: project_name_conflict).
  await db.schema.createTable('plan_goals', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('name_key', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('archived_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['organization_uuid', 'name_key'], { indexName: 'plan_goals_live_name', predicate: db.whereNull('archived_at') });
    t.index(['organization_uuid', 'created_at']);
  });

  await db.schema.createTable('plan_projects', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('goal_uuid', 36).nullable().references('uuid').inTable('plan_goals').onDelete('SET NULL');
    t.string('name', 200).notNullable();
    t.string('name_key', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('visibility', 8).notNullable().defaultTo('org');
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('archived_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['organization_uuid', 'name_key']);
    t.index(['goal_uuid']);
  });

  await db.schema.createTable('plan_project_members', (t) => {
    t.string('uuid', 36).primary();
    t.string('project_uuid', 36).notNullable().references('uuid').inTable('plan_projects').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('role', 16).notNullable();
    t.string('created_at', 32).notNullable();
    t.unique(['project_uuid', 'user_uuid']);
    t.index(['user_uuid']);
  });

  await db.schema.createTable('plan_milestones', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('project_uuid', 36).notNullable().references('uuid').inTable('plan_projects').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('target_date', 10).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['project_uuid']);
  });

  await db.schema.createTable('plan_project_updates', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('project_uuid', 36).notNullable().references('uuid').inTable('plan_projects').onDelete('CASCADE');
    t.string('author_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('agent_name', 128).nullable();
    t.text('body').notNullable();
    t.string('health', 16).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.string('edited_at', 32).nullable();
    t.index(['project_uuid', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_project_updates');
  await db.schema.dropTable('plan_milestones');
  await db.schema.dropTable('plan_project_members');
  await db.schema.dropTable('plan_projects');
  await db.schema.dropTable('plan_goals');
}
