import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Workflows (CONTRACT §7): a trigger and the actions it runs. Header values of http_request actions and the
  // signing secret are sealed together in `secrets_encrypted`; `actions` holds everything else.
  await db.schema.createTable('workflows', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('description').nullable();
    t.string('trigger_type', 16).notNullable(); // api_trigger | schedule | event
    t.text('trigger_config').notNullable();
    t.text('actions').notNullable();
    t.text('secrets_encrypted').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.integer('total_runs').notNullable().defaultTo(0);
    t.string('last_run_at', 32).nullable();
    // Schedules: the minute up to which the schedule has been looked at (a missed minute fires once on restart).
    t.string('schedule_checked_at', 32).nullable();
    t.string('created_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['organization_uuid', 'trigger_type', 'active']);
    t.index(['trigger_type', 'active']);
  });

  // One run per trigger; its status is read from its actions' deliveries (the outbox is the one record of sending).
  await db.schema.createTable('workflow_runs', (t) => {
    t.string('uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable().references('uuid').inTable('organizations').onDelete('CASCADE');
    t.string('workflow_uuid', 36).notNullable().references('uuid').inTable('workflows').onDelete('CASCADE');
    t.string('trigger', 16).notNullable(); // api_trigger | schedule | event
    t.string('event', 100).nullable();
    t.text('payload').notNullable();
    t.string('triggered_by_uuid', 36).nullable().references('uuid').inTable('users').onDelete('SET NULL');
    t.string('created_at', 32).notNullable();
    t.index(['workflow_uuid', 'created_at']);
  });

  // Each action of a run: its deliveries carry this row's uuid as subject_uuid. `error` is set when the action
  // could not be queued at all (a template that does not render, no chat platform, no valid address).
  await db.schema.createTable('workflow_run_actions', (t) => {
    t.string('uuid', 36).primary();
    t.string('run_uuid', 36).notNullable().references('uuid').inTable('workflow_runs').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('type', 32).notNullable();
    t.text('destination').nullable();
    t.text('error').nullable();
    t.string('created_at', 32).notNullable();
    t.index(['run_uuid']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['workflow_run_actions', 'workflow_runs', 'workflows']) await db.schema.dropTable(table);
}
