import type { Knex } from 'knex';
import { generateNKeysBetween } from 'fractional-indexing';

/**
 * What the later DailyBot client version reads and writes: an order of boards and of projects that people set
 * (`position`, a fractional index like a task's rank: existing ones take their creation order), a saved view's
 * swimlane (`sub_group_by`), and saved views of the workspace itself (neither board nor project), found by
 * organization. On PostgreSQL `position` compares byte by byte (COLLATE "C"), as a task's rank does (migration 0810).
 */
export async function up(db: Knex): Promise<void> {
  const postgres = db.client.config.client === 'pg';
  for (const table of ['plan_boards', 'plan_projects'] as const) {
    if (postgres) await db.raw(`alter table ${table} add column position varchar(64) collate "C" null`);
    else await db.schema.alterTable(table, (t) => t.string('position', 64).nullable());
    const rows: { uuid: string; organization_uuid: string }[] = await db(table).orderBy([{ column: 'organization_uuid' }, { column: 'created_at' }, { column: 'uuid' }]).select('uuid', 'organization_uuid');
    const byOrganization = new Map<string, string[]>();
    for (const row of rows) byOrganization.set(row.organization_uuid, [...(byOrganization.get(row.organization_uuid) ?? []), row.uuid]);
    for (const uuids of byOrganization.values()) {
      const positions = generateNKeysBetween(null, null, uuids.length);
      for (const [i, uuid] of uuids.entries()) await db(table).where({ uuid }).update({ position: positions[i] });
    }
    await db.schema.alterTable(table, (t) => {
      t.index(['organization_uuid', 'position'], `${table}_position`);
    });
  }
  await db.schema.alterTable('plan_views', (t) => {
    t.string('sub_group_by', 64).nullable();
    t.index(['organization_uuid', 'visibility'], 'plan_views_organization');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_views', (t) => {
    t.dropIndex(['organization_uuid', 'visibility'], 'plan_views_organization');
    t.dropColumn('sub_group_by');
  });
  for (const table of ['plan_boards', 'plan_projects'] as const) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex(['organization_uuid', 'position'], `${table}_position`);
      t.dropColumn('position');
    });
  }
}
