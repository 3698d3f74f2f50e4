/**
 * The app's one way to call Rollcall: the public API at /v1/, through openapi-fetch typed by the API's own OpenAPI
 * document (api-schema.d.ts, written by `npm run openapi -w app`), so every path, parameter, body and answer the
 * app uses is checked against what the API declares. The browser sends the session from its HttpOnly cookie (no
 * script here ever sees a credential); writes carry the page's Origin, which the API checks for cookie-authenticated
 * writes.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './api-schema.d.ts';

/** Every object the API answers with, by its OpenAPI name (`Schemas['PlanTask']`). */
export type Schemas = components['schemas'];
export type Me = Schemas['Me'];

/** An answer other than 2xx: its status, the API's `code` and the body (`{detail, code, extra?}` or a field map). */
export class ApiError extends Error {
  status: number;
  code: string | null;
  body: Record<string, unknown> | null;
  constructor(status: number, body: unknown) {
    const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : typeof body === 'string' && body ? { detail: body } : null;
    super(typeof fields?.detail === 'string' ? fields.detail : fieldErrors(fields) ?? `HTTP ${status}`);
    this.status = status;
    this.code = typeof fields?.code === 'string' ? fields.code : null;
    this.body = fields;
  }
}

/** A 400 field map (`{"title": ["…"]}`) as one readable line. */
function fieldErrors(body: Record<string, unknown> | null): string | null {
  if (!body) return null;
  const parts = Object.entries(body).filter(([, v]) => Array.isArray(v)).map(([k, v]) => `${k}: ${(v as string[]).join(' ')}`);
  return parts.length ? parts.join('; ') : null;
}

/** Called when any request answers 401: the session ended (signed out elsewhere, expired). */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler;
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin', headers: { accept: 'application/json' } });
api.use({
  onResponse({ request, response }) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/v1/cli/auth/')) onSignedOut();
  },
});

/** What openapi-fetch answers: the typed body on success, else the error body. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful call; anything else throws ApiError (`await ok(api.GET('/v1/me/'))`). */
export async function ok<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, error);
  return data as T;
}

/** The paths whose GET answers a page of `{count, next, previous, results}`. */
type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': { results: unknown[]; next: string | null } } } } } } ? P : never;
}[keyof paths];
type ListGet<P extends ListPath> = paths[P] extends { get: infer G } ? G : never;
export type ItemOf<P extends ListPath> = ListGet<P> extends { responses: { 200: { content: { 'application/json': { results: (infer I)[] } } } } } ? I : never;
type ListParams<P extends ListPath> = ListGet<P> extends { parameters: infer A } ? Omit<A, 'header'> : never;

/** Every item of a list (100 a page, following `next`), up to `limit` items: `await all('/v1/teams/')`. */
export async function all<P extends ListPath>(path: P, params?: ListParams<P>, limit = 2000): Promise<ItemOf<P>[]> {
  const items: ItemOf<P>[] = [];
  const given = (params ?? {}) as { query?: Record<string, unknown> };
  for (let page = 1; items.length < limit; page++) {
    // The path's own parameters were checked by the signature; the paging ones are every list's.
    const get = api.GET as unknown as (path: string, init: unknown) => Promise<Answer<{ results: ItemOf<P>[]; next: string | null }>>;
    const body = await ok(get(path, { params: { ...given, query: { ...given.query, page, page_size: 100 } } }));
    items.push(...body.results);
    if (!body.next) break;
  }
  return items;
}
