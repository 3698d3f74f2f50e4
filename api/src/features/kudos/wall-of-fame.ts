import type { Executor } from '../../db/connection.ts';
import type { PageRequest } from '../../lib/page.ts';
import type { Actor } from '../../auth/credentials.ts';
import { fullName } from '../users/repository.ts';
import { periodStart } from './periods.ts';
import { PERSON_COLUMNS } from './repository.ts';
import type { CompanyValueRow, PersonRef } from './repository.ts';
import type { Period } from './schema.ts';

export interface Standing {
  user: PersonRef;
  kudosReceived: number;
  kudosGiven: number;
  plusReceived: number;
  plusGiven: number;
}

export interface WallOfFame {
  period: Period;
  since: Date | null;
  topReceiver: Standing | null;
  topGiver: Standing | null;
  dna: { value: CompanyValueRow; count: number; percentage: number }[];
  /** The whole board, ranked; the route pages it. */
  board: { position: number; standing: Standing }[];
  page: { position: number; standing: Standing }[];
  mine: number | null;
}

const counted = (rows: { key: string; n: number | string }[]) => new Map(rows.map((r) => [r.key, Number(r.n)]));

/**
 * The wall of fame over the current period in the organization's time zone: who received and gave most, how
 * kudos spread over company values, and the leaderboard of receivers (score: kudos received; ties by boosts
 * received, then name). Anonymous kudos count for their receivers and never for their giver. Four grouped
 * queries over indexed columns, ranked in code.
 */
export async function wallOfFame(db: Executor, actor: Actor, period: Period, page: PageRequest, now: Date): Promise<WallOfFame> {
  const org = actor.organization.uuid;
  const since = periodStart(period, now, actor.organization.timezone || 'UTC');
  const from = since?.toISOString() ?? '';

  const receivedRows = await db('kudos as k')
    .join('kudos_receivers as r', 'r.kudos_uuid', 'k.uuid')
    .where('k.organization_uuid', org)
    .andWhere('k.created_at', '>=', from)
    .groupBy('r.user_uuid')
    .select('r.user_uuid as key', db.raw('count(*) as n'), db.raw('sum(k.boosts_count) as plus'));
  const received = counted(receivedRows);
  const plusReceived = new Map(receivedRows.map((r: { key: string; plus: number | string | null }) => [r.key, Number(r.plus ?? 0)]));
  const given = counted(
    await db('kudos').where('organization_uuid', org).andWhere('created_at', '>=', from).andWhere('is_anonymous', false).groupBy('giver_uuid').select('giver_uuid as key', db.raw('count(*) as n')),
  );
  const plusGiven = counted(
    await db('kudos_boosts').where('organization_uuid', org).andWhere('created_at', '>=', from).groupBy('user_uuid').select('user_uuid as key', db.raw('count(*) as n')),
  );
  const valueCounts = counted(
    await db('kudos').where('organization_uuid', org).andWhere('created_at', '>=', from).whereNotNull('company_value_uuid').groupBy('company_value_uuid').select('company_value_uuid as key', db.raw('count(*) as n')),
  );

  const everyone = [...new Set([...received.keys(), ...given.keys()])];
  const people = new Map<string, PersonRef>();
  for (let i = 0; i < everyone.length; i += 500) {
    const rows: PersonRef[] = await db('users').whereIn('uuid', everyone.slice(i, i + 500)).select(...PERSON_COLUMNS);
    for (const row of rows) people.set(row.uuid, row);
  }
  const standing = (uuid: string): Standing => ({
    user: people.get(uuid)!,
    kudosReceived: received.get(uuid) ?? 0,
    kudosGiven: given.get(uuid) ?? 0,
    plusReceived: plusReceived.get(uuid) ?? 0,
    plusGiven: plusGiven.get(uuid) ?? 0,
  });
  const byName = (a: Standing, b: Standing) => fullName(a.user).localeCompare(fullName(b.user)) || (a.user.uuid < b.user.uuid ? -1 : 1);

  const ranked = [...received.keys()]
    .filter((uuid) => people.has(uuid))
    .map(standing)
    .sort((a, b) => b.kudosReceived - a.kudosReceived || b.plusReceived - a.plusReceived || byName(a, b));
  const board = ranked.map((s, i) => ({ position: i + 1, standing: s }));
  const givers = [...given.keys()]
    .filter((uuid) => people.has(uuid))
    .map(standing)
    .sort((a, b) => b.kudosGiven - a.kudosGiven || b.plusGiven - a.plusGiven || byName(a, b));

  const values: CompanyValueRow[] = valueCounts.size ? await db('company_values').whereIn('uuid', [...valueCounts.keys()]) : [];
  const totalWithValue = [...valueCounts.values()].reduce((a, b) => a + b, 0);
  const dna = values
    .map((value) => {
      const count = valueCounts.get(value.uuid) ?? 0;
      return { value, count, percentage: Math.round((count / totalWithValue) * 1000) / 10 };
    })
    .sort((a, b) => b.count - a.count || a.value.value.localeCompare(b.value.value));

  return {
    period,
    since,
    topReceiver: board[0]?.standing ?? null,
    topGiver: givers[0] ?? null,
    dna,
    board,
    page: board.slice(page.offset, page.offset + page.limit),
    mine: board.find((b) => b.standing.user.uuid === actor.user.uuid)?.position ?? null,
  };
}
