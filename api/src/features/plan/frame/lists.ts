import type { Knex } from 'knex';
import type { Visibility } from '../../../db/tables.ts';
import type { PageRequest } from '../../../lib/page.ts';

/** A LIKE pattern matching `text` anywhere, with the pattern characters escaped (use with `escape '\'`). */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A list's order: a column and a direction (http/query.ts reads it from `ordering`). */
export interface Ordering {
  column: string;
  order: 'asc' | 'desc';
}

/** The filters boards and projects (containers with members and a visibility) share in their lists. */
export interface ContainerFilters {
  includeArchived: boolean;
  search?: string;
  member?: string;
  visibility?: Visibility;
  ordering: Ordering;
}

/**
 * One page of a Plan list: the total count of `base()` and this page's rows as `arrange` orders (and selects)
 * them (`arrange` must not add or remove rows). `base` builds the filtered query afresh for each statement. The
 * page is read first: when it holds some rows but fewer than a page, they are the last ones, so the count is
 * the offset plus them and needs no statement of its own (most lists of labels, states and members fit in one
 * page: one statement instead of two).
 */
export async function pageOf<T>(base: () => Knex.QueryBuilder, page: PageRequest, arrange: (query: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<{ count: number; rows: T[] }> {
  const rows = (await arrange(base()).limit(page.limit).offset(page.offset)) as T[];
  if (rows.length > 0 && rows.length < page.limit) return { count: page.offset + rows.length, rows };
  if (rows.length === 0 && page.offset === 0) return { count: 0, rows };
  const [{ count }] = await base().count({ count: '*' });
  return { count: Number(count), rows };
}

/** Orders by the list's `ordering` field, then by uuid (so pages never overlap); `alias.` prefixes both. */
export const byOrdering = (ordering: Ordering, alias = '') => (query: Knex.QueryBuilder) =>
  query.orderBy([{ column: `${alias}${ordering.column}`, order: ordering.order }, { column: `${alias}uuid`, order: 'asc' }]);

/** Live rows unless archived ones are asked for, and a case-folded name containing the search text. */
export function whereListed(query: Knex.QueryBuilder, filters: { includeArchived: boolean; search?: string }, alias = ''): Knex.QueryBuilder {
  if (!filters.includeArchived) query.whereNull(`${alias}archived_at`);
  if (filters.search) query.andWhereRaw(`${alias}name_key like ? escape '\\'`, [containsPattern(filters.search)]);
  return query;
}
