import type { Knex } from 'knex';

/**
 * An agent's pending messages are read in (created_at, uuid) order, at most 100, on every report and health
 * check; with uuid in the index SQLite reads them in that order instead of sorting them. Replaces the index
 * it extends.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('agent_messages', (t) => {
    t.dropIndex(['agent_uuid', 'delivered', 'created_at']);
    t.index(['agent_uuid', 'delivered', 'created_at', 'uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('agent_messages', (t) => {
    t.dropIndex(['agent_uuid', 'delivered', 'created_at', 'uuid']);
    t.index(['agent_uuid', 'delivered', 'created_at']);
  });
}
