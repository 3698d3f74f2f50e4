import type { Context } from 'koa';
import { invalidFilter } from '../../lib/errors.ts';
import { PLAN_VISIBILITIES as VISIBILITIES } from '../../db/tables.ts';
import { isUuid } from '../../lib/ids.ts';
import { queryBoolean, queryChoice, queryOrdering, querySearch, queryText, queryUuid } from '../query.ts';
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

  search(): string | undefined {
    return querySearch(this.#ctx);
  }

  ordering(allowed: Record<string, string>, fallback: Ordering): Ordering {
    return queryOrdering(this.#ctx, allowed, fallback);
  }

  /** include_archived, search, member, visibility and ordering, as board and project lists take them. */
  containerFilters(ordering: Record<string, string>) {
    return {
      includeArchived: this.flag('include_archived'),
      search: this.search(),
      member: this.person('member'),
      visibility: this.oneOf('visibility', VISIBILITIES),
      ordering: this.ordering(ordering, { column: 'created_at', order: 'asc' }),
    };
  }
}
