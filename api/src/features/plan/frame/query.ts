import type { ParsedUrlQuery } from 'node:querystring';
import { ApiError, badRequest, invalidFilter } from '../../../http/errors.ts';
import { isUuid } from '../../../lib/ids.ts';

/** Query parameters of Plan lists, read strictly: a value that does not parse is 400, never ignored. */
export class PlanQuery {
  readonly #query: ParsedUrlQuery;
  constructor(query: ParsedUrlQuery) {
    this.#query = query;
  }

  /** One value, or undefined when absent. A repeated parameter is refused (which one was meant?). */
  text(name: string): string | undefined {
    if (!Object.hasOwn(this.#query, name)) return undefined;
    const value = this.#query[name];
    if (Array.isArray(value)) throw invalidFilter(name, `Give ${name} once.`);
    return value;
  }

  /** `true` or `false` (also 1/0); absent → the fallback. */
  flag(name: string, fallback = false): boolean {
    const value = this.text(name);
    if (value === undefined || value === '') return fallback;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw invalidFilter(name, `${name} must be true or false.`);
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.text(name);
    if (value === undefined || value === '') return undefined;
    if (!(values as readonly string[]).includes(value)) throw invalidFilter(name, `${name} must be one of: ${values.join(', ')}.`);
    return value as T;
  }

  uuid(name: string): string | undefined {
    const value = this.text(name);
    if (value === undefined || value === '') return undefined;
    if (!isUuid(value)) throw invalidFilter(name, `${name} must be a uuid.`);
    return value.toLowerCase();
  }

  /** `me` or a user uuid (the spec's owner filter shape). `me` needs a person: the gate checks that first. */
  person(name: string, me: string): string | undefined {
    const value = this.text(name);
    if (value === undefined || value === '') return undefined;
    if (value === 'me') return me;
    if (!isUuid(value)) throw invalidFilter(name, `${name} must be "me" or a user uuid.`);
    return value.toLowerCase();
  }

  /** Free-text search: 2 to 256 characters (spec: search_query_too_short / search_query_too_long). */
  search(name = 'search'): string | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    const length = [...value.trim()].length;
    if (length < 2) throw badRequest('search_query_too_short', 'The search text must have at least 2 characters.', { parameter: name });
    if (length > 256) throw badRequest('search_query_too_long', 'The search text must have at most 256 characters.', { parameter: name });
    return value.trim();
  }

  /** `ordering=field` or `-field`, among the list's sortable fields (column by field name): 400 `invalid_sort`. */
  ordering(columns: Record<string, string>, fallback: [string, 'asc' | 'desc']): [string, 'asc' | 'desc'] {
    const value = this.text('ordering');
    if (value === undefined || value === '') return fallback;
    const descending = value.startsWith('-');
    const field = descending ? value.slice(1) : value;
    if (!Object.hasOwn(columns, field)) {
      throw new ApiError(400, 'invalid_sort', `This list sorts by ${Object.keys(columns).join(', ')} (prefix - for descending).`, { extra: { parameter: 'ordering' } });
    }
    return [columns[field], descending ? 'desc' : 'asc'];
  }
}

/** A LIKE pattern matching `text` anywhere, with the pattern characters escaped (use with `escape '\'`). */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
