import type { Context } from 'koa';
import { badRequest, invalidFilter } from '../../http/errors.ts';
import { startOfLocalDay } from '../../lib/time.ts';
import { isUuid } from '../../lib/ids.ts';

/** Query parameters of the list conventions (CONTRACT §2, §12), shared by the people and check-in lists. */
export function queryValue(ctx: Context, name: string): string | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  return Array.isArray(raw) ? raw[raw.length - 1] : raw;
}

export function queryBool(ctx: Context, name: string): boolean | undefined {
  const value = queryValue(ctx, name);
  if (value === undefined || value === '') return undefined;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw invalidFilter(name, `${name} must be true or false.`);
}

/** `search`: 2–256 characters (spec Limits), with the spec's codes. */
export function searchTerm(ctx: Context): string | undefined {
  const value = queryValue(ctx, 'search');
  if (value === undefined || value === '') return undefined;
  const term = value.trim();
  if (term.length < 2) throw badRequest('search_query_too_short', 'The search text needs at least 2 characters.', { parameter: 'search' });
  if (term.length > 256) throw badRequest('search_query_too_long', 'The search text has at most 256 characters.', { parameter: 'search' });
  return term;
}

/** A `LIKE` pattern that matches `term` literally anywhere. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** A YYYY-MM-DD query value, or 400 `invalid_date_range` naming the parameter. */
export function dateParam(ctx: Context, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = queryValue(ctx, name);
    if (value === undefined || value === '') continue;
    if (!isCalendarDate(value)) throw badRequest('invalid_date_range', `${name} must be a date as YYYY-MM-DD.`, { parameter: name });
    return value;
  }
  return undefined;
}

/** A from/to pair under its names and aliases; from after to answers `invalid_date_range`. */
export function dateRange(ctx: Context, from: string[], to: string[]): { from?: string; to?: string } {
  const start = dateParam(ctx, ...from);
  const end = dateParam(ctx, ...to);
  if (start && end && start > end) {
    throw badRequest('invalid_date_range', `${from[0]} is after ${to[0]}.`, { parameter: from[0] });
  }
  return { from: start, to: end };
}

/** `ordering=field` or `-field` among `allowed` (list field → column). */
export function ordering(ctx: Context, allowed: Record<string, string>, fallback: { column: string; order: 'asc' | 'desc' }) {
  const value = queryValue(ctx, 'ordering');
  if (value === undefined || value === '') return fallback;
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  const column = allowed[field];
  if (!column) {
    throw badRequest('invalid_sort', `ordering must be one of: ${Object.keys(allowed).join(', ')} (prefix - for descending).`, { parameter: 'ordering' });
  }
  return { column, order: descending ? ('desc' as const) : ('asc' as const) };
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * `date`, or `since`/`until` (also `start_date`/`end_date`, CONTRACT §12) as instants: from the start of the
 * first local day to the start of the day after the last, in `timeZone`. For lists of timestamped items.
 */
export function localDayRange(ctx: Context, timeZone: string): { from?: Date; to?: Date } {
  const day = dateParam(ctx, 'date');
  const range = day ? { from: day, to: day } : dateRange(ctx, ['since', 'start_date'], ['until', 'end_date']);
  return {
    from: range.from ? startOfLocalDay(range.from, timeZone) : undefined,
    to: range.to ? startOfLocalDay(nextDay(range.to), timeZone) : undefined,
  };
}

/** A uuid query value, or 400 `invalid_filter_value`. */
export function uuidQuery(ctx: Context, name: string): string | undefined {
  const value = queryValue(ctx, name);
  if (value === undefined || value === '') return undefined;
  if (!isUuid(value)) throw invalidFilter(name, `${name} must be a uuid.`);
  return value;
}

/** A comma-separated list of uuids (at most `limit`: 400 `too_many_filter_values` past it). */
export function uuidListQuery(ctx: Context, name: string, limit = 50): string[] | undefined {
  const value = queryValue(ctx, name);
  if (value === undefined || value === '') return undefined;
  const list = [...new Set(value.split(',').map((v) => v.trim()).filter(Boolean))];
  if (list.length > limit) throw badRequest('too_many_filter_values', `${name} takes at most ${limit} values.`, { parameter: name, limit });
  if (!list.every(isUuid)) throw invalidFilter(name, `${name} must be uuids separated by commas.`);
  return list;
}

/** One of `allowed`, or 400 `invalid_filter_value` naming them. */
export function oneOfQuery<T extends string>(ctx: Context, name: string, allowed: readonly T[]): T | undefined {
  const value = queryValue(ctx, name);
  if (value === undefined || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw invalidFilter(name, `${name} must be one of: ${allowed.join(', ')}.`);
  return value as T;
}
