import type { Knex } from 'knex';
import { generateNKeysBetween } from 'fractional-indexing';

/**
 * Ranks are unique per column (board, state): placing a task between two that were not adjacent used to give it
 * the rank an earlier placement had taken (issue 24). Tasks that share a rank are first given ranks of their own,
 * in the order the lists showed them (rank, then uuid), between the shared rank and the next one of the column;
 * then a unique index keeps it so. On PostgreSQL the column compares byte by byte (COLLATE "C"), as SQLite and
 * the code do: fractional-indexing's digits 0-9A-Za-z are not in order under a language collation.
 */
export async function up(db: Knex): Promise<void> {
  const postgres = db.client.config.client === 'pg';
  if (postgres) await db.raw('alter table plan_tasks alter column rank type varchar(64) collate "C"');
  const shared: { board_uuid: string; state_uuid: string; rank: string }[] = await db('plan_tasks')
    .select('board_uuid', 'state_uuid', 'rank')
    .groupBy('board_uuid', 'state_uuid', 'rank')
    .havingRaw('count(*) > 1');
  for (const group of shared) {
    const column = () => db('plan_tasks').where({ board_uuid: group.board_uuid, state_uuid: group.state_uuid });
    const twins: { uuid: string }[] = await column().where({ rank: group.rank }).orderBy('uuid').select('uuid');
    const next = await column().where('rank', '>', group.rank).min({ rank: 'rank' }).first();
    const ranks = generateNKeysBetween(group.rank, next?.rank ?? null, twins.length - 1);
    for (const [i, twin] of twins.slice(1).entries()) await db('plan_tasks').where({ uuid: twin.uuid }).update({ rank: ranks[i] });
  }
  await db.schema.alterTable('plan_tasks', (t) => {
    t.dropIndex(['board_uuid', 'state_uuid', 'rank']);
    t.unique(['board_uuid', 'state_uuid', 'rank'], { indexName: 'plan_tasks_column_rank' });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('plan_tasks', (t) => {
    t.dropUnique(['board_uuid', 'state_uuid', 'rank'], 'plan_tasks_column_rank');
    t.index(['board_uuid', 'state_uuid', 'rank']);
  });
}
