import type { Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';

/** Some clients send JSON bodies on DELETE (CONTRACT §12). */
const BODY_METHODS = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];

/**
 * JSON request bodies (1 MiB at most; malformed JSON and oversized bodies become 400/413 in the error handler),
 * parsed by koa-body for the methods that carry one. Other requests, GET above all, skip koa-body: it would only
 * find that there is nothing to parse, in an async frame of its own (about 0.9 KB of garbage per request).
 */
export function parseJsonBodies(): Middleware {
  const parse = koaBody({ json: true, jsonStrict: true, jsonLimit: '1mb', urlencoded: false, text: false, multipart: false, parsedMethods: BODY_METHODS });
  const parsed = new Set<string>(BODY_METHODS);
  return (ctx, next) => (parsed.has(ctx.method) ? parse(ctx, next) : next());
}
