import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // What was done on someone's behalf: an exchange token issued, and each request made with one (the member
  // acted as and the admin who issued it both recorded).
  await db.schema.createTable('audit_events', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('action', 64).notNullable();
    t.string('actor_uuid', 36).nullable();
    t.string('admin_uuid', 36).nullable();
    t.string('credential_uuid', 36).nullable();
    t.string('exchange_token_uuid', 36).nullable();
    t.string('method', 10).nullable();
    t.string('path', 2048).nullable();
    t.integer('status').nullable();
    t.string('created_at', 32).notNullable();
    t.index(['organization_uuid', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('audit_events');
}
