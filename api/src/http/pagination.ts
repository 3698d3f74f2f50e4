import type { Context } from 'koa';
import type { PageRequest } from '../lib/page.ts';

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
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
