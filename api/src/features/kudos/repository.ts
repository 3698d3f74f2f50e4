import type { Knex } from 'knex';
import type { Executor } from '../../db/connection.ts';
import type { Actor } from '../../auth/credentials.ts';
import { can } from '../../auth/policy.ts';
import type { CompanyValueRow, KudosRow } from '../../db/tables.ts';
export type { CompanyValueRow, KudosRow };

export interface PersonRef {
  uuid: string;
  first_name: string;
  last_name: string;
  email: string;
  image: string | null;
}

/** Everything a kudos is shown with: its people, teams, value and whether the caller boosted it. */
export interface KudosView {
  row: KudosRow;
  giver: PersonRef | null;
  receivers: PersonRef[];
  teams: { uuid: string; name: string }[];
  companyValue: CompanyValueRow | null;
  boosted: boolean;
}

export const PERSON_COLUMNS = ['uuid', 'first_name', 'last_name', 'email', 'image'] as const;

/** Kudos a person can see: every kudos of the organization, except for guests, who see those they gave or received. */
export function visibleKudos(db: Executor, actor: Actor) {
  const query = db('kudos as k').where('k.organization_uuid', actor.organization.uuid);
  if (!can(actor, 'kudos.see_all')) involving(db, query, actor.user.uuid, 'both');
  return query;
}

/** Narrows a query on `kudos as k` to the kudos `userUuid` gave, received, or either. */
export function involving(db: Executor, query: Knex.QueryBuilder, userUuid: string, side: 'given' | 'received' | 'both'): Knex.QueryBuilder {
  const received = () => db('kudos_receivers').select('kudos_uuid').where('user_uuid', userUuid);
  if (side === 'given') return query.andWhere('k.giver_uuid', userUuid);
  if (side === 'received') return query.whereIn('k.uuid', received());
  return query.andWhere((w) => w.where('k.giver_uuid', userUuid).orWhereIn('k.uuid', received()));
}

/** Loads people, teams, values and the caller's boosts for a page of kudos rows: five queries, whatever the page size. */
export async function viewsOf(db: Executor, rows: KudosRow[], viewerUuid: string): Promise<KudosView[]> {
  if (rows.length === 0) return [];
  const uuids = rows.map((r) => r.uuid);
  const receivers: (PersonRef & { kudos_uuid: string })[] = await db('kudos_receivers as r')
    .join('users as u', 'u.uuid', 'r.user_uuid')
    .whereIn('r.kudos_uuid', uuids)
    .select('r.kudos_uuid', ...PERSON_COLUMNS.map((c) => `u.${c}`));
  const teams: { kudos_uuid: string; uuid: string; name: string }[] = await db('kudos_teams as kt')
    .join('teams as t', 't.uuid', 'kt.team_uuid')
    .whereIn('kt.kudos_uuid', uuids)
    .select('kt.kudos_uuid', 't.uuid', 't.name');
  const giverUuids = [...new Set(rows.filter((r) => !isAnonymous(r)).map((r) => r.giver_uuid))];
  const givers: PersonRef[] = giverUuids.length ? await db('users').whereIn('uuid', giverUuids).select(...PERSON_COLUMNS) : [];
  const valueUuids = [...new Set(rows.map((r) => r.company_value_uuid).filter((v): v is string => v !== null))];
  const values: CompanyValueRow[] = valueUuids.length ? await db('company_values').whereIn('uuid', valueUuids) : [];
  const boosted = new Set(
    (await db('kudos_boosts').whereIn('kudos_uuid', uuids).andWhere('user_uuid', viewerUuid).select('kudos_uuid')).map((b: { kudos_uuid: string }) => b.kudos_uuid),
  );
  const byName = (a: PersonRef, b: PersonRef) => `${a.first_name} ${a.last_name}`.localeCompare(`${b.first_name} ${b.last_name}`) || (a.uuid < b.uuid ? -1 : 1);
  return rows.map((row) => ({
    row,
    giver: isAnonymous(row) ? null : (givers.find((g) => g.uuid === row.giver_uuid) ?? null),
    receivers: receivers.filter((r) => r.kudos_uuid === row.uuid).sort(byName),
    teams: teams.filter((t) => t.kudos_uuid === row.uuid).map(({ uuid, name }) => ({ uuid, name })),
    companyValue: values.find((v) => v.uuid === row.company_value_uuid) ?? null,
    boosted: boosted.has(row.uuid),
  }));
}

export const isAnonymous = (row: Pick<KudosRow, 'is_anonymous'>): boolean => row.is_anonymous === true || row.is_anonymous === 1;
