import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { pageRequest, queryBoolean, queryChoice, queryDate, queryDateRange, queryInteger, queryOrdering, querySearch, queryText, queryUuid, queryUuids } from './query.ts';

/** A context with just the parsed query, as Koa hands it over (a repeated parameter is an array). */
const ctx = (query: Record<string, string | string[]>) => ({ query }) as unknown as Context;

/** What a reader answers: its value, or the error's code and parameter. */
function read<T>(reader: () => T): T | string {
  try {
    return reader();
  } catch (err) {
    const e = err as { code: string; extra?: { parameter?: string } };
    return `${e.code} ${e.extra?.parameter}`;
  }
}

const A = '0190c8f4-0000-7000-8000-00000000000a';
const B = '0190c8f4-0000-7000-8000-00000000000b';

describe('query parameters (http/query.ts)', () => {
  it('counts a repeated parameter with its last value, everywhere', () => {
    expect(queryText(ctx({ q: ['a', 'b'] }), 'q')).toBe('b');
    expect(queryBoolean(ctx({ active: ['false', 'true'] }), 'active')).toBe(true);
    expect(queryInteger(ctx({ n: ['1', '7'] }), 'n', 1, 10)).toBe(7);
    expect(queryChoice(ctx({ role: ['member', 'admin'] }), 'role', ['admin', 'member'])).toBe('admin');
    expect(queryDate(ctx({ date: ['2026-01-01', '2026-01-02'] }), 'date')).toBe('2026-01-02');
    expect(pageRequest(ctx({ page: ['1', '3'], page_size: ['5', '10'] }))).toEqual({ limit: 10, offset: 20, style: 'page' });
  });

  it('takes every value of a uuid list, repeated or comma-separated', () => {
    expect(queryUuids(ctx({ user: [A, `${B},${A}`] }), 'user')).toEqual([A, B]);
    expect(read(() => queryUuids(ctx({ user: `${A},nope` }), 'user'))).toBe('invalid_filter_value user');
    expect(read(() => queryUuids(ctx({ user: [A, B] }), 'user', 1))).toBe('too_many_filter_values user');
    expect(queryUuids(ctx({ user: '' }), 'user')).toBeUndefined();
  });

  it('treats an empty value as absent, except for queryText', () => {
    for (const reader of [
      () => queryBoolean(ctx({ x: '' }), 'x'),
      () => queryInteger(ctx({ x: '' }), 'x', 0, 1),
      () => queryChoice(ctx({ x: '' }), 'x', ['a']),
      () => queryUuid(ctx({ x: '' }), 'x'),
      () => queryDate(ctx({ x: '' }), 'x'),
      () => querySearch(ctx({ search: '' })),
    ]) {
      expect(reader()).toBeUndefined();
    }
    expect(queryText(ctx({ x: '' }), 'x')).toBe('');
    expect(queryText(ctx({}), 'x')).toBeUndefined();
  });

  it('reads booleans as true/false, 1/0 or yes/no, and refuses anything else naming the parameter', () => {
    for (const yes of ['true', 'TRUE', '1', 'yes', 'Yes']) expect(queryBoolean(ctx({ b: yes }), 'b')).toBe(true);
    for (const no of ['false', '0', 'no', 'NO']) expect(queryBoolean(ctx({ b: no }), 'b')).toBe(false);
    expect(read(() => queryBoolean(ctx({ b: 'maybe' }), 'b'))).toBe('invalid_filter_value b');
  });

  it('reads dates strictly, since/until and start_date/end_date alike; a bad date or range is invalid_date_range', () => {
    expect(queryDateRange(ctx({ since: '2026-01-01', until: '2026-01-31' }))).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(queryDateRange(ctx({ start_date: '2026-01-01', end_date: '2026-01-31' }))).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(read(() => queryDateRange(ctx({ since: '2026-02-30' })))).toBe('invalid_date_range since');
    expect(read(() => queryDateRange(ctx({ end_date: '31/01/2026' })))).toBe('invalid_date_range end_date');
    expect(read(() => queryDateRange(ctx({ start_date: '2026-02-01', until: '2026-01-01' })))).toBe('invalid_date_range since');
  });

  it('answers invalid_filter_value with the parameter for numbers, choices and uuids', () => {
    expect(read(() => queryInteger(ctx({ limit: '0' }), 'limit', 1, 100))).toBe('invalid_filter_value limit');
    expect(read(() => queryInteger(ctx({ limit: '1.5' }), 'limit', 1, 100))).toBe('invalid_filter_value limit');
    expect(read(() => queryChoice(ctx({ status: 'lost' }), 'status', ['pending']))).toBe('invalid_filter_value status');
    expect(read(() => queryUuid(ctx({ user: 'mia' }), 'user'))).toBe('invalid_filter_value user');
    expect(read(() => pageRequest(ctx({ page_size: '1000' })))).toBe('invalid_filter_value page_size');
  });

  it('answers the spec\'s codes for search and ordering, and never takes an inherited name for a field', () => {
    expect(read(() => querySearch(ctx({ search: 'a' })))).toBe('search_query_too_short search');
    expect(read(() => querySearch(ctx({ search: 'x'.repeat(257) })))).toBe('search_query_too_long search');
    const allowed = { name: 't.name' };
    const fallback = { column: 't.uuid', order: 'asc' as const };
    expect(queryOrdering(ctx({ ordering: '-name' }), allowed, fallback)).toEqual({ column: 't.name', order: 'desc' });
    expect(read(() => queryOrdering(ctx({ ordering: 'constructor' }), allowed, fallback))).toBe('invalid_sort ordering');
  });

  it('pages by page and page_size, or limit and offset; 50 by default', () => {
    expect(pageRequest(ctx({}))).toEqual({ limit: 50, offset: 0, style: 'page' });
    expect(pageRequest(ctx({ limit: '10', offset: '30' }))).toEqual({ limit: 10, offset: 30, style: 'offset' });
    expect(pageRequest(ctx({ offset: '5' }))).toEqual({ limit: 50, offset: 5, style: 'offset' });
  });
});
