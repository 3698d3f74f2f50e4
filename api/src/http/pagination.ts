import type { Context } from 'koa';
import { invalidFilter } from '../lib/errors.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../lib/page.ts';
import type { PageRequest } from '../lib/page.ts';


export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

function positiveInt(ctx: Context, name: string, min: number, max: number): number | null {
  const raw = ctx.query[name];
  if (raw === undefined || raw === '') return null;
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalidFilter(name, `${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

/** `page` (1-based) and `page_size`, or `limit` and `offset`; default 50 items, at most 100 (CONTRACT §2). */
export function pageRequest(ctx: Context): PageRequest {
  const limit = positiveInt(ctx, 'limit', 1, MAX_PAGE_SIZE);
  const offset = positiveInt(ctx, 'offset', 0, Number.MAX_SAFE_INTEGER);
  if (limit !== null || offset !== null) {
    return { limit: limit ?? DEFAULT_PAGE_SIZE, offset: offset ?? 0, style: 'offset' };
  }
  const size = positiveInt(ctx, 'page_size', 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
  const page = positiveInt(ctx, 'page', 1, Number.MAX_SAFE_INTEGER) ?? 1;
  return { limit: size, offset: (page - 1) * size, style: 'page' };
}

/** The request's own URL with some query parameters replaced; every other filter is repeated verbatim. */
function linkTo(ctx: Context, publicUrl: string | null, changes: Record<string, number | null>): string {
  const base = publicUrl ?? `${ctx.protocol}://${ctx.host}`;
  const url = new URL(ctx.originalUrl, `${base}/`);
  if (publicUrl) {
    const prefix = new URL(publicUrl).pathname.replace(/\/$/, '');
    url.pathname = `${prefix}${new URL(ctx.originalUrl, 'http://x').pathname}`;
  }
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, String(value));
  }
  return url.toString();
}

export function pageEnvelope<T>(
  ctx: Context,
  request: PageRequest,
  count: number,
  results: T[],
  publicUrl: string | null,
): Page<T> {
  const { limit, offset, style } = request;
  const hasNext = offset + results.length < count;
  const hasPrevious = offset > 0;
  const pageLink = (start: number) =>
    style === 'offset'
      ? linkTo(ctx, publicUrl, { limit, offset: start })
      : linkTo(ctx, publicUrl, { page: Math.floor(start / limit) + 1, page_size: ctx.query.page_size ? limit : null });
  return {
    count,
    next: hasNext ? pageLink(offset + limit) : null,
    previous: hasPrevious ? (style === 'page' && offset - limit <= 0 ? linkTo(ctx, publicUrl, { page: null }) : pageLink(Math.max(0, offset - limit))) : null,
    results,
  };
}
