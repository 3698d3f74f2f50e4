import type { Knex } from 'knex';

/** Saved views of a board or project (personal, shared, board_default) and each person's favorites. */
export async function up(db: Knex): Promise<void> {
  // A view belongs to a board or to a project (exactly one of the two). `version` makes its ETag; every write
  // bumps it. `owner_uuid` is whose personal view it is (and who made a shared one).
  await db.schema.createTable('plan_views', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('board_uuid', 36).nullable().references('uuid').inTable('plan_boards').onDelete('CASCADE');
    t.string('project_uuid', 36).nullable().references('uuid').inTable('plan_projects').onDelete('CASCADE');
    t.string('owner_uuid', 36).nullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('visibility', 16).notNullable();
    t.text('filters').notNullable().defaultTo('{}');
    t.text('sort').notNullable().defaultTo('[]');
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['board_uuid', 'visibility']);
    t.index(['project_uuid', 'visibility']);
    t.index(['owner_uuid']);
  });

  // No foreign key on the object: a favorite names a task, a board or a project; lists skip the ones gone or no
  // longer visible, and deleting the object deletes its favorites.
  await db.schema.createTable('plan_favorites', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('object_type', 16).notNullable();
    t.string('object_uuid', 36).notNullable();
    t.string('created_at', 32).notNullable();
    t.unique(['user_uuid', 'object_type', 'object_uuid']);
    t.index(['user_uuid', 'created_at']);
    t.index(['object_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_favorites');
  await db.schema.dropTable('plan_views');
}
