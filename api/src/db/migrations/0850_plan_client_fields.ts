import type { Knex } from 'knex';

/**
 * What the DailyBot command-line client reads and writes beyond CONTRACT §9: a caption on a file, a project's
 * dates and health, a goal's period and declared status, a milestone completed or retired, the boards a person
 * visited (their recents), a person's Plan settings (how far they read the activity feed, their daily briefing,
 * the notification kinds they turned off), and each run of a scheduled report.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_attachments', (t) => {
    t.text('caption').nullable();
  });
  await db.schema.alterTable('plan_projects', (t) => {
    t.string('start_date', 10).nullable();
    t.string('target_date', 10).nullable();
    t.string('health', 16).nullable();
  });
  await db.schema.alterTable('plan_goals', (t) => {
    t.string('period_start', 10).nullable();
    t.string('period_end', 10).nullable();
    t.string('status', 16).nullable();
  });
  await db.schema.alterTable('plan_milestones', (t) => {
    t.string('completed_at', 32).nullable();
    t.string('archived_at', 32).nullable();
  });
  await db.schema.alterTable('plan_notification_routes', (t) => {
    t.string('name', 200).nullable();
    t.boolean('enabled').notNullable().defaultTo(true);
  });
  await db.schema.alterTable('plan_views', (t) => {
    t.string('view_mode', 16).nullable();
    t.string('group_by', 64).nullable();
  });
  await db.schema.createTable('plan_board_visits', (t) => {
    t.string('user_uuid', 36).notNullable();
    t.string('board_uuid', 36).notNullable();
    t.string('organization_uuid', 36).notNullable();
    t.string('visited_at', 32).notNullable();
    t.primary(['user_uuid', 'board_uuid']);
    t.index(['user_uuid', 'visited_at'], 'plan_board_visits_recent');
  });
  await db.schema.createTable('plan_person_settings', (t) => {
    t.string('user_uuid', 36).primary();
    t.string('organization_uuid', 36).notNullable();
    t.string('activity_seen_at', 32).nullable();
    t.text('briefing').nullable();
    t.text('notifications').nullable();
    t.string('updated_at', 32).notNullable();
  });
  await db.schema.createTable('plan_report_runs', (t) => {
    t.string('uuid', 36).primary();
    t.string('report_uuid', 36).notNullable();
    t.string('organization_uuid', 36).notNullable();
    t.string('trigger', 16).notNullable();
    t.integer('deliveries').notNullable();
    t.string('ran_at', 32).notNullable();
    t.index(['report_uuid', 'ran_at'], 'plan_report_runs_recent');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('plan_report_runs');
  await db.schema.dropTable('plan_person_settings');
  await db.schema.dropTable('plan_board_visits');
  await db.schema.alterTable('plan_notification_routes', (t) => {
    t.dropColumn('name');
    t.dropColumn('enabled');
  });
  await db.schema.alterTable('plan_views', (t) => {
    t.dropColumn('view_mode');
    t.dropColumn('group_by');
  });
  await db.schema.alterTable('plan_milestones', (t) => {
    t.dropColumn('completed_at');
    t.dropColumn('archived_at');
  });
  await db.schema.alterTable('plan_goals', (t) => {
    t.dropColumn('period_start');
    t.dropColumn('period_end');
    t.dropColumn('status');
  });
  await db.schema.alterTable('plan_projects', (t) => {
    t.dropColumn('start_date');
    t.dropColumn('target_date');
    t.dropColumn('health');
  });
  await db.schema.alterTable('plan_attachments', (t) => {
    t.dropColumn('caption');
  });
}
