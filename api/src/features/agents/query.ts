import type { Context } from 'koa';
import { invalidFilter } from '../../lib/errors.ts';

/** A single-valued query parameter, or null when absent. */
export function queryText(ctx: Context, name: string): string | null {
  const raw = ctx.query[name];
  if (raw === undefined) return null;
  return Array.isArray(raw) ? raw[0] : raw;
}

/** `true`/`false` (also 1/0), or null when absent; anything else is `invalid_filter_value`. */
export function queryBoolean(ctx: Context, name: string): boolean | null {
  const raw = queryText(ctx, name);
  if (raw === null || raw === '') return null;
  if (/^(true|1)$/i.test(raw)) return true;
  if (/^(false|0)$/i.test(raw)) return false;
  throw invalidFilter(name, `${name} must be true or false.`);
}
