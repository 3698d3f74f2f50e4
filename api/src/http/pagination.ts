import type { Context } from 'koa';
import type { PageRequest } from '../lib/page.ts';
import { publicBase } from './forwarded.ts';

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * The request's own URL with some query parameters replaced; every other filter is repeated verbatim. The scheme
 * and host are PUBLIC_URL's (its path a prefix), or the request's as http/forwarded.ts settled them: a header
 * never decides them unless a trusted proxy sent it, and the request's path and query never do.
 */
function linkTo(ctx: Context, publicUrl: string | null, changes: Record<string, number | null>): string {
  const url = new URL(publicBase(ctx, publicUrl));
  const prefix = url.pathname.replace(/\/$/, '');
  url.pathname = `${prefix}${ctx.originalUrl.split('?', 1)[0]}`;
  url.search = ctx.querystring;
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
