import type { Knex } from 'knex';

/** Boards, their keys (retired ones stay reserved), members, states and labels. */
export async function up(db: Knex): Promise<void> {
  // change_seq numbers the board's changes (plan_changes.seq); next_task_number gives tasks their KEY-n. Both
  // are incremented in the writing transaction, under the board row's lock.
  await db.schema.createTable('plan_boards', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('project_uuid', 36).nullable().references('uuid').inTable('plan_projects').onDelete('SET NULL');
    t.string('key', 10).notNullable();
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('visibility', 8).notNullable().defaultTo('org');
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.bigInteger('change_seq').notNullable().defaultTo(0);
    t.integer('next_task_number').notNullable().defaultTo(1);
    t.string('archived_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid', 'created_at']);
    t.index(['project_uuid']);
  });

  // Every key a board has had, per organization. A key stays reserved after a rename or a deletion (its tasks'
  // old KEY-n keep resolving; spec: duplicate_board_key). No foreign key: the row outlives its board.
  await db.schema.createTable('plan_board_keys', (t) => {
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('key', 10).notNullable();
    t.string('board_uuid', 36).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('retired_at', 32).nullable();
    t.primary(['organization_uuid', 'key']);
    t.index(['board_uuid']);
  });

  await db.schema.createTable('plan_board_members', (t) => {
    t.string('uuid', 36).primary();
    t.string('board_uuid', 36).notNullable().references('uuid').inTable('plan_boards').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('role', 16).notNullable();
    t.string('created_at', 32).notNullable();
    t.unique(['board_uuid', 'user_uuid']);
    t.index(['user_uuid']);
  });

  // Columns. A state is live or archived, never deleted (tasks and history point at it). Names are unique among
  // a board's live states; positions order the live ones.
  await db.schema.createTable('plan_states', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('board_uuid', 36).notNullable().references('uuid').inTable('plan_boards').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('name_key', 100).notNullable();
    t.string('category', 16).notNullable();
    t.integer('position').notNullable();
    t.string('color', 7).notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.string('archived_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['board_uuid', 'position']);
    t.unique(['board_uuid', 'name_key'], { indexName: 'plan_states_live_name', predicate: db.whereNull('archived_at') });
  });

  await db.schema.createTable('plan_labels', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('board_uuid', 36).notNullable().references('uuid').inTable('plan_boards').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('name_key', 100).notNullable();
    t.string('color', 7).notNullable();
    t.string('archived_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['board_uuid', 'name_key']);
    t.unique(['board_uuid', 'name_key'], { indexName: 'plan_labels_live_name', predicate: db.whereNull('archived_at') });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_labels');
  await db.schema.dropTable('plan_states');
  await db.schema.dropTable('plan_board_members');
  await db.schema.dropTable('plan_board_keys');
  await db.schema.dropTable('plan_boards');
}
