import type { Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { ApiError, ValidationFailed, badRequest } from '../lib/errors.ts';
import { MAX_JSON_DEPTH, unusableJsonAt } from '../lib/json.ts';
import { payloadTooLarge } from './raw-body.ts';

/** Some clients send JSON bodies on DELETE (CONTRACT §12). */
const BODY_METHODS = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];
/** koa-body's own list of JSON media types. */
const JSON_TYPES = ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/reports+json'];
/** Only an object or an array at the top (what co-body's strict mode takes). */
const OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*[[{]/;

/**
 * JSON request bodies, for the methods that carry one: koa-body reads the text (1 MiB at most: 413, with the
 * encodings it knows), and the body is parsed here, so that:
 * - a key named `__proto__` is an ordinary key, as JSON says. koa-body's parser refuses any body holding one,
 *   and cannot be told otherwise; it is legitimate inside free-form objects (`metadata`). Code that reads a
 *   body looks keys up as own properties (`Object.hasOwn`) and never copies one with plain assignment.
 * - nesting is limited to MAX_JSON_DEPTH levels before anything walks the value recursively (validation,
 *   JSON.stringify when it is stored). V8's JSON.parse itself does not recurse, so parsing first is safe.
 * - a NUL character (`\u0000`) is refused in any key or string: PostgreSQL's text cannot store it.
 * GET and the other methods skip koa-body: it would only find that there is nothing to parse, in an async frame
 * of its own (about 0.9 KB of garbage per request). So do `rawPaths` (Feature.rawBodyPaths): requests signed
 * over their exact bytes, which their routes read themselves.
 */
export function parseJsonBodies(rawPaths: readonly string[] = []): Middleware {
  const read = koaBody({ json: false, text: true, textTypes: JSON_TYPES, textLimit: '1mb', urlencoded: false, multipart: false, parsedMethods: BODY_METHODS });
  const parsed = new Set<string>(BODY_METHODS);
  const raw = new Set(rawPaths.map((p) => p.toLowerCase()));
  const nothing = () => Promise.resolve();
  return (ctx, next) => {
    if (!parsed.has(ctx.method) || (raw.size > 0 && raw.has(ctx.path.toLowerCase()))) return next();
    return read(ctx, nothing).then(
      () => {
        const text = ctx.request.body as unknown;
        if (typeof text === 'string') ctx.request.body = parseJsonBody(text) as typeof ctx.request.body;
        return next();
      },
      (err: unknown) => {
        throw unreadableBody(err);
      },
    );
  };
}

/** Why a body could not be read, in the contract's terms: every failure of the client's is a 4xx. */
function unreadableBody(err: unknown): unknown {
  const e = err as { status?: number; type?: string; code?: string };
  if (e.type === 'entity.too.large' || e.status === 413) return payloadTooLarge('The request body is larger than 1 MiB.');
  if (e.status === 415) return new ApiError(415, 'unsupported_media_type', 'Unsupported request body encoding.');
  if (e.type === 'request.size.invalid' || e.type === 'request.aborted') return badRequest('malformed_json', 'The request body was cut off.');
  // zlib's errors (Z_DATA_ERROR, …): a Content-Encoding the body does not match.
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) return badRequest('malformed_json', 'The request body could not be decompressed.');
  return err;
}

/** The body as a value: `{}` when empty; 400 `malformed_json` when it is not a JSON object or array; 400 naming the field nested too deep or holding a NUL character. */
export function parseJsonBody(text: string): unknown {
  if (text === '') return {};
  let value: unknown;
  try {
    if (!OBJECT_OR_ARRAY.test(text)) throw new SyntaxError('not an object or an array');
    value = JSON.parse(text);
  } catch {
    throw badRequest('malformed_json', 'Malformed JSON in the request body.');
  }
  const problem = unusableJsonAt(value, MAX_JSON_DEPTH);
  if (problem === null) return value;
  const message = problem.reason === 'depth' ? `Nested more than ${MAX_JSON_DEPTH} levels deep.` : 'Must not contain the NUL character (U+0000).';
  // The body is an object (every endpoint takes one): name its field, as validation does.
  if (problem.field !== '') throw new ValidationFailed({ [problem.field]: [message] });
  throw problem.reason === 'depth'
    ? badRequest('malformed_json', `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`, { max_depth: MAX_JSON_DEPTH })
    : badRequest('malformed_json', 'The request body contains the NUL character (U+0000).');
}
