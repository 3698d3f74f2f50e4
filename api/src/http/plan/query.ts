import type { Context } from 'koa';
import { invalidFilter } from '../../lib/errors.ts';
import { PLAN_VISIBILITIES as VISIBILITIES } from '../../db/tables.ts';
import { isUuid } from '../../lib/ids.ts';
import { queryBoolean, queryChoice, queryDateRange, queryInteger, queryOrdering, querySearch, queryText, queryUuid, queryUuids } from '../query.ts';
import type { Ordering } from '../query.ts';

export type { Ordering };


/** A Plan handler's view of its query parameters, read by the rules of http/query.ts. */
export class PlanQuery {
  readonly #ctx: Context;
  readonly #me: string;
  constructor(ctx: Context, me: string) {
    this.#ctx = ctx;
    this.#me = me;
  }

  flag(name: string, fallback = false): boolean {
    return queryBoolean(this.#ctx, name) ?? fallback;
  }

  /** true, false, or undefined when the parameter is absent. */
  optionalFlag(name: string): boolean | undefined {
    return queryBoolean(this.#ctx, name);
  }

  /** A whole number between min and max (else invalid_filter_value), or undefined when absent. */
  integer(name: string, range: { min: number; max: number }): number | undefined {
    return queryInteger(this.#ctx, name, range.min, range.max);
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    return queryChoice(this.#ctx, name, values);
  }

  uuid(name: string): string | undefined {
    return queryUuid(this.#ctx, name)?.toLowerCase();
  }

  /** `me` (the calling person: the gate refused it to agent and organization keys) or a user uuid. */
  person(name: string): string | undefined {
    const value = queryText(this.#ctx, name);
    if (value === undefined || value === '') return undefined;
    if (value === 'me') return this.#me;
    if (!isUuid(value)) throw invalidFilter(name, `${name} must be "me" or a user uuid.`);
    return value.toLowerCase();
  }

  /** Search text (2–256 characters) under `search`, or another name (`q` on the Plan search). */
  search(name = 'search'): string | undefined {
    return querySearch(this.#ctx, name);
  }

  /** A parameter's text as given (the last one when repeated). */
  text(name: string): string | undefined {
    return queryText(this.#ctx, name);
  }

  /** Every uuid given, repeated or comma-separated; more than `max` answers `too_many_filter_values`. */
  uuids(name: string, max = 50): string[] | undefined {
    return queryUuids(this.#ctx, name, max);
  }

  /** Every value given under `name`, repeated or comma-separated, blanks dropped (undefined when none). */
  values(name: string): string[] | undefined {
    const raw = this.#ctx.query[name];
    if (raw === undefined) return undefined;
    const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
    return values.length === 0 ? undefined : values;
  }

  /** A `YYYY-MM-DD` range under the given names (each with its aliases); `invalid_date_range` when malformed or reversed. */
  dateRange(from: string[], to: string[]): { from?: string; to?: string } {
    return queryDateRange(this.#ctx, from, to);
  }

  /** A header of the request (lower-case name), for handlers that take a precondition (If-Match). */
  header(name: string): string | undefined {
    const value = this.#ctx.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  ordering(allowed: Record<string, string>, fallback: Ordering): Ordering {
    return queryOrdering(this.#ctx, allowed, fallback);
  }

  /** `sort`, or else `ordering` (the name every other list uses), read the same way. */
  sort(allowed: Record<string, string>, fallback: Ordering): Ordering {
    return queryText(this.#ctx, 'sort') ? queryOrdering(this.#ctx, allowed, fallback, 'sort') : this.ordering(allowed, fallback);
  }

  /** include_archived, search, member, visibility and ordering, as board and project lists take them. */
  containerFilters(ordering: Record<string, string>) {
    return {
      includeArchived: this.flag('include_archived'),
      search: this.search(),
      member: this.person('member'),
      visibility: this.oneOf('visibility', VISIBILITIES),
      // The order people give boards and projects (POST …/reorder/); new ones go last.
      ordering: this.ordering(ordering, { column: 'position', order: 'asc' }),
    };
  }
}
