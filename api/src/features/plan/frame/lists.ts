import type { Knex } from 'knex';
import type { PageRequest } from '../../../http/pagination.ts';
import { containsPattern } from './query.ts';

/**
 * One page of a Plan list: the total count of `base()` and this page's rows as `arrange` orders (and selects)
 * them. `base` builds the filtered query afresh for each of the two statements.
 */
export async function pageOf<T>(base: () => Knex.QueryBuilder, page: PageRequest, arrange: (query: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<{ count: number; rows: T[] }> {
  const [{ count }] = await base().count({ count: '*' });
  const rows = (await arrange(base()).limit(page.limit).offset(page.offset)) as T[];
  return { count: Number(count), rows };
}

/** Orders by the list's `ordering` field, then by uuid (so pages never overlap); `alias.` prefixes both. */
export const byOrdering = (ordering: [string, 'asc' | 'desc'], alias = '') => (query: Knex.QueryBuilder) =>
  query.orderBy([{ column: `${alias}${ordering[0]}`, order: ordering[1] }, { column: `${alias}uuid`, order: 'asc' }]);

/** Live rows unless archived ones are asked for, and a case-folded name containing the search text. */
export function whereListed(query: Knex.QueryBuilder, filters: { includeArchived: boolean; search?: string }, alias = ''): Knex.QueryBuilder {
  if (!filters.includeArchived) query.whereNull(`${alias}archived_at`);
  if (filters.search) query.andWhereRaw(`${alias}name_key like ? escape '\\'`, [containsPattern(filters.search)]);
  return query;
}
