import type { Context, Next } from 'koa';
import { isUuid } from '../lib/ids.ts';
import { notFound } from '../lib/errors.ts';

/** A path id that is not a UUID names nothing: 404, the same body as an absent object. */
export function uuidParam(value: string, ctx: Context, next: Next): Promise<void> {
  if (!isUuid(value)) throw notFound();
  return next() as Promise<void>;
}
