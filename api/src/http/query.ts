import type { Context } from 'koa';
import { addDays, isCalendarDate, startOfLocalDay } from '../lib/dates.ts';
import { badRequest, invalidFilter } from '../lib/errors.ts';
import { isUuid } from '../lib/ids.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../lib/page.ts';
import type { PageRequest } from '../lib/page.ts';

/**
 * How every list reads its query parameters (CONTRACT §2, §12). One set of rules:
 * - A parameter given more than once counts with its last value (`?role=member&role=admin` is `admin`), as
 *   Django's QueryDict reads it, which the clients of this API family were written against. Lists of uuids
 *   (queryUuids) take every value instead, repeated or comma-separated.
 * - An empty value is the same as an absent one, except for queryText, which hands it over as given.
 * - A value that cannot be read answers 400 `invalid_filter_value` with `extra.parameter`; dates answer the
 *   spec's `invalid_date_range` instead, searches `search_query_too_short`/`_long`, orderings `invalid_sort`.
 * - Booleans are true/false, 1/0 or yes/no, in any case. Dates are `YYYY-MM-DD` days that exist.
 * - No value holds a NUL character (`%00`): 400 `invalid_filter_value`.
 */

/**
 * Before routing (http/frame.ts): a NUL character (`%00`) in any query value (or name) answers 400
 * `invalid_filter_value` naming the parameter, on every route, as NUL in a body does (http/json-body.ts): no
 * reader of `ctx.query` can hand one to PostgreSQL, whose text cannot hold it. Costs a substring test when the
 * query has no `%00`.
 */
export function refuseNulInQuery(ctx: Context): void {
  // The whole URL: cheaper than having Koa split off its query, and a %00 in the path alone finds nothing below.
  if (!(ctx.req.url ?? '').includes('%00')) return;
  for (const [name, raw] of Object.entries(ctx.query)) {
    const values = Array.isArray(raw) ? raw : [raw ?? ''];
    if (name.includes('\0') || values.some((value) => value.includes('\0'))) {
      const parameter = name.replaceAll('\0', '');
      throw invalidFilter(parameter, `${parameter} must not contain the NUL character (%00).`);
    }
  }
}

/** The value of `name` (its last, when repeated), or undefined when absent; never a NUL character (PostgreSQL's text cannot hold one). */
export function queryText(ctx: Context, name: string): string | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (value.includes('\0')) throw invalidFilter(name, `${name} must not contain the NUL character (%00).`);
  return value;
}

/** The value of `name`, undefined when absent or empty. */
function present(ctx: Context, name: string): string | undefined {
  const value = queryText(ctx, name);
  return value === '' ? undefined : value;
}

export function queryBoolean(ctx: Context, name: string): boolean | undefined {
  const value = present(ctx, name);
  if (value === undefined) return undefined;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw invalidFilter(name, `${name} must be true or false.`);
}

export function queryInteger(ctx: Context, name: string, min: number, max: number): number | undefined {
  const value = present(ctx, name);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw invalidFilter(name, `${name} must be a whole number from ${min} to ${max}.`);
  return number;
}

/** One of `values` (an enumerated column: a role, a status, a channel). */
export function queryChoice<T extends string>(ctx: Context, name: string, values: readonly T[]): T | undefined {
  const value = present(ctx, name);
  if (value === undefined) return undefined;
  const found = values.find((v) => v === value);
  if (found === undefined) throw invalidFilter(name, `${name} must be one of: ${values.join(', ')}.`);
  return found;
}

export function queryUuid(ctx: Context, name: string, detail = `${name} must be a uuid.`): string | undefined {
  const value = present(ctx, name);
  if (value === undefined) return undefined;
  if (!isUuid(value)) throw invalidFilter(name, detail);
  return value;
}

/**
 * Every uuid given under `name`, repeated (`?user=a&user=b`) or comma-separated (`?user=a,b`); more than `max`
 * answers the spec's 400 `too_many_filter_values` with `extra.limit`.
 */
export function queryUuids(ctx: Context, name: string, max = 100): string[] | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (values.length === 0) return undefined;
  if (values.length > max) throw badRequest('too_many_filter_values', `${name} takes at most ${max} values.`, { parameter: name, limit: max });
  if (!values.every(isUuid)) throw invalidFilter(name, `${name} must be uuids, separated by commas.`);
  return [...new Set(values.map((v) => v.toLowerCase()))];
}

/** The parameter names of a date range's start and end, each with its aliases (CONTRACT §12). */
export const SINCE = ['since', 'start_date'];
export const UNTIL = ['until', 'end_date'];

/** A `YYYY-MM-DD` day under the first of `names` that is given; 400 `invalid_date_range` naming it otherwise. */
export function queryDate(ctx: Context, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = present(ctx, name);
    if (value === undefined) continue;
    if (!isCalendarDate(value)) throw badRequest('invalid_date_range', `${name} must be a date as YYYY-MM-DD.`, { parameter: name });
    return value;
  }
  return undefined;
}

/** A from/to pair under its names and aliases (SINCE, UNTIL by default); a start after the end is `invalid_date_range`. */
export function queryDateRange(ctx: Context, from: string[] = SINCE, to: string[] = UNTIL): { from?: string; to?: string } {
  const start = queryDate(ctx, ...from);
  const end = queryDate(ctx, ...to);
  if (start && end && start > end) throw badRequest('invalid_date_range', `${from[0]} is after ${to[0]}.`, { parameter: from[0] });
  return { from: start, to: end };
}

/**
 * `date`, or a range (SINCE, UNTIL), as instants: from the start of the first local day to the start of the day
 * after the last, in `timeZone`. For lists of timestamped items read in the organization's days.
 */
export function queryLocalDays(ctx: Context, timeZone: string): { from?: Date; to?: Date } {
  const day = queryDate(ctx, 'date');
  const range = day ? { from: day, to: day } : queryDateRange(ctx);
  return {
    from: range.from ? startOfLocalDay(range.from, timeZone) : undefined,
    to: range.to ? startOfLocalDay(addDays(range.to, 1), timeZone) : undefined,
  };
}

/** `search`: 2–256 characters (spec Limits), with the spec's codes. */
export function querySearch(ctx: Context, name = 'search'): string | undefined {
  const value = present(ctx, name);
  if (value === undefined) return undefined;
  const term = value.trim();
  if (term.length < 2) throw badRequest('search_query_too_short', 'The search text needs at least 2 characters.', { parameter: name });
  if (term.length > 256) throw badRequest('search_query_too_long', 'The search text has at most 256 characters.', { parameter: name });
  return term;
}

export interface Ordering {
  column: string;
  order: 'asc' | 'desc';
}

/** `ordering=field` or `-field` among `allowed` (list field → column); `invalid_sort` otherwise. */
export function queryOrdering(ctx: Context, allowed: Record<string, string>, fallback: Ordering, name = 'ordering'): Ordering {
  const value = present(ctx, name);
  if (value === undefined) return fallback;
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  const column = Object.hasOwn(allowed, field) ? allowed[field] : undefined;
  if (!column) {
    throw badRequest('invalid_sort', `${name} must be one of: ${Object.keys(allowed).join(', ')} (prefix - for descending).`, { parameter: name });
  }
  return { column, order: descending ? 'desc' : 'asc' };
}

/** `page` (1-based) and `page_size`, or `limit` and `offset`; default 50 items, at most 100 (CONTRACT §2). */
export function pageRequest(ctx: Context): PageRequest {
  const limit = queryInteger(ctx, 'limit', 1, MAX_PAGE_SIZE);
  const offset = queryInteger(ctx, 'offset', 0, Number.MAX_SAFE_INTEGER);
  if (limit !== undefined || offset !== undefined) {
    return { limit: limit ?? DEFAULT_PAGE_SIZE, offset: offset ?? 0, style: 'offset' };
  }
  const size = queryInteger(ctx, 'page_size', 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
  const page = queryInteger(ctx, 'page', 1, Number.MAX_SAFE_INTEGER) ?? 1;
  return { limit: size, offset: (page - 1) * size, style: 'page' };
}
