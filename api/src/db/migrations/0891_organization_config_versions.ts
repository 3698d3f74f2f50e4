import type { Knex } from 'knex';
import { isSqlite } from '../connection.ts';

/**
 * One version per organization for the settings hot paths read on every kudos and every Plan change: its
 * enabled webhook subscriptions' events, its active event workflows, its chat platform and its kudos settings.
 * Triggers give the organization a fresh random version whenever a row of those tables that matters to them
 * changes, whoever writes it (the API, the delivery worker disabling a subscription, `rollcall admin`, another
 * process on PostgreSQL); db/organization-config.ts keeps what it read under the version it saw and reads again
 * when the version differs. Random, not a counter: a version seen inside a transaction that rolls back is never
 * given again, so nothing read under it is ever taken for committed settings.
 * No foreign key: deleting an organization deletes its subscriptions, whose triggers still write here.
 */
const WATCHED: { table: string; columns: string[] | null }[] = [
  { table: 'webhook_subscriptions', columns: ['organization_uuid', 'subscriptions', 'disabled_at'] },
  // Not total_runs and last_run_at, which every run of a workflow updates.
  { table: 'workflows', columns: ['organization_uuid', 'trigger_type', 'trigger_config', 'active'] },
  { table: 'chat_connections', columns: ['organization_uuid', 'platform'] },
  { table: 'kudos_settings', columns: null },
];

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organization_config_versions', (t) => {
    t.string('organization_uuid', 36).primary();
    t.bigInteger('version').notNullable();
  });
  const postgres = !isSqlite(db);
  if (postgres) {
    await db.raw(`create function organization_config_changed() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          insert into organization_config_versions values (old.organization_uuid, floor(random() * 9e15)::bigint)
            on conflict (organization_uuid) do update set version = excluded.version;
        end if;
        if tg_op <> 'DELETE' then
          insert into organization_config_versions values (new.organization_uuid, floor(random() * 9e15)::bigint)
            on conflict (organization_uuid) do update set version = excluded.version;
        end if;
        return null;
      end $$`);
  }
  for (const { table, columns } of WATCHED) {
    const update = columns ? `update of ${columns.join(', ')}` : 'update';
    if (postgres) {
      await db.raw(`create trigger ${table}_config_version after insert or delete or ${update} on ${table} for each row execute function organization_config_changed()`);
      continue;
    }
    // Delete, then insert: in a trigger fired by an upsert (kudos settings are written so), SQLite applies the
    // outer statement's conflict handling to the trigger's statements, so `insert or replace` would fail.
    const bump = (row: 'new' | 'old') =>
      `delete from organization_config_versions where organization_uuid = ${row}.organization_uuid; insert into organization_config_versions (organization_uuid, version) values (${row}.organization_uuid, random());`;
    await db.raw(`create trigger ${table}_config_version_insert after insert on ${table} begin ${bump('new')} end`);
    await db.raw(`create trigger ${table}_config_version_update after ${update} on ${table} begin ${bump('old')} ${bump('new')} end`);
    await db.raw(`create trigger ${table}_config_version_delete after delete on ${table} begin ${bump('old')} end`);
  }
}

export async function down(db: Knex): Promise<void> {
  const postgres = !isSqlite(db);
  for (const { table } of WATCHED) {
    if (postgres) await db.raw(`drop trigger if exists ${table}_config_version on ${table}`);
    else for (const event of ['insert', 'update', 'delete']) await db.raw(`drop trigger if exists ${table}_config_version_${event}`);
  }
  if (postgres) await db.raw('drop function if exists organization_config_changed()');
  await db.schema.dropTable('organization_config_versions');
}
