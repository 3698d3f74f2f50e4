import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Agent reports (CONTRACT §6); structured, metadata and the resolved co-authors are JSON text.
  await db.schema.createTable('agent_reports', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('agent_uuid', 36).notNullable().references('uuid').inTable('agents').onDelete('CASCADE');
    t.string('reported_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.text('content').notNullable();
    t.text('structured').nullable();
    t.text('metadata').nullable();
    t.boolean('is_milestone').notNullable().defaultTo(false);
    t.text('co_authors').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['agent_uuid', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('agent_reports');
}
