import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('team_members', (t) => {
    t.string('team_uuid', 36).notNullable().references('uuid').inTable('teams').onDelete('CASCADE');
    t.string('user_uuid', 36).notNullable().references('uuid').inTable('users').onDelete('CASCADE');
    t.string('created_at', 32).notNullable();
    t.primary(['team_uuid', 'user_uuid']);
    t.index(['user_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('team_members');
}
