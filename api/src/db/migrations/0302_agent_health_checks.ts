import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Every health check of an agent: the history of GET /v1/agent-health/ (CONTRACT §6, §12).
  await db.schema.createTable('agent_health_checks', (t) => {
    t.string('uuid', 36).primary();
    t.string('agent_uuid', 36).notNullable().references('uuid').inTable('agents').onDelete('CASCADE');
    t.string('status', 16).notNullable();
    t.string('message', 1000).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['agent_uuid', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('agent_health_checks');
}
