import type { Knex } from 'knex';

/**
 * What every Plan call shares: the organization's change counter, the change log, and stored Idempotency-Key
 * answers. Tables of the Plan are prefixed `plan_`.
 */
export async function up(db: Knex): Promise<void> {
  // One row per organization that has used the Plan: the sequence of its organization-level changes (projects,
  // goals, memberships of projects). Its row lock also serializes the free-plan ceiling checks.
  await db.schema.createTable('plan_organizations', (t) => {
    t.string('organization_uuid', 36).primary().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.bigInteger('change_seq').notNullable().defaultTo(0);
    t.string('created_at', 32).notNullable();
  });

  // Every Plan change, written in the transaction of the change. A board's changes are numbered by the board's
  // own counter (plan_boards.change_seq), organization-level changes by plan_organizations.change_seq: both are
  // incremented under a row lock in the writing transaction, so one stream's numbers commit in order.
  await db.schema.createTable('plan_changes', (t) => {
    t.bigIncrements('id').primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('board_uuid', 36).nullable();
    t.string('project_uuid', 36).nullable();
    t.bigInteger('seq').notNullable();
    t.string('object_kind', 32).notNullable();
    t.string('object_uuid', 36).notNullable();
    t.string('change_kind', 16).notNullable();
    t.text('changed_fields').notNullable().defaultTo('[]');
    t.text('snapshot').nullable();
    t.string('actor_uuid', 36).nullable();
    t.string('credential_uuid', 36).nullable();
    t.string('agent_name', 128).nullable();
    t.string('created_at', 32).notNullable();
    t.unique(['board_uuid', 'seq'], { indexName: 'plan_changes_board_seq', predicate: db.whereNotNull('board_uuid') });
    t.unique(['organization_uuid', 'seq'], { indexName: 'plan_changes_org_seq', predicate: db.whereNull('board_uuid') });
    t.index(['object_uuid']);
    t.index(['project_uuid']);
    t.index(['created_at']);
  });

  // Idempotency-Key answers, per actor and key: `running` while the first request runs (until locked_until),
  // then `done` with the answer to replay until expires_at.
  await db.schema.createTable('plan_idempotency_keys', (t) => {
    t.string('actor_id', 36).notNullable();
    t.string('key', 128).notNullable();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('fingerprint', 64).notNullable();
    t.string('state', 8).notNullable();
    t.string('locked_until', 32).notNullable();
    t.integer('status').nullable();
    t.text('headers').nullable();
    t.text('body').nullable();
    t.string('created_at', 32).notNullable();
    t.string('expires_at', 32).notNullable();
    t.primary(['actor_id', 'key']);
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_idempotency_keys');
  await db.schema.dropTable('plan_changes');
  await db.schema.dropTable('plan_organizations');
}
