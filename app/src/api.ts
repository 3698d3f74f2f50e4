/**
 * The app's one way to call Rollcall: the public API at /v1/, with the session the browser holds in its
 * HttpOnly cookie (sent by the browser itself; no script here ever sees a credential). Writes carry the page's
 * Origin, which the API checks for cookie-authenticated writes.
 */
export class ApiError extends Error {
  status: number;
  code: string | null;
  body: any;
  constructor(status: number, body: any) {
    super(typeof body?.detail === 'string' ? body.detail : fieldErrors(body) ?? `HTTP ${status}`);
    this.status = status;
    this.code = typeof body?.code === 'string' ? body.code : null;
    this.body = body;
  }
}

/** A 400 field map (`{"title": ["…"]}`) as one readable line. */
function fieldErrors(body: any): string | null {
  if (!body || typeof body !== 'object') return null;
  const parts = Object.entries(body).filter(([, v]) => Array.isArray(v)).map(([k, v]) => `${k}: ${(v as string[]).join(' ')}`);
  return parts.length ? parts.join('; ') : null;
}

/** Called when any request answers 401: the session ended (signed out elsewhere, expired). */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler;
};

export async function api<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text };
  }
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/v1/cli/auth/')) onSignedOut();
    throw new ApiError(res.status, parsed);
  }
  return parsed as T;
}

export const get = <T = any>(path: string) => api<T>('GET', path);
export const post = <T = any>(path: string, body: unknown = {}) => api<T>('POST', path, body);

export interface Page<T> {
  count: number;
  next: string | null;
  results: T[];
}

/** Every item of a paginated list (following `next`, 100 at a time), up to `limit` items. */
export async function all<T>(path: string, limit = 2000): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = `${path}${path.includes('?') ? '&' : '?'}page_size=100`;
  while (next && items.length < limit) {
    const page: Page<T> = await get(next.replace(/^https?:\/\/[^/]+/, ''));
    items.push(...page.results);
    next = page.next;
  }
  return items;
}

/** Who is signed in (GET /v1/cli/auth/status/ and /v1/me/), or null. */
export interface Me {
  uuid: string;
  /** Empty for someone invited by address only, until they give their name. */
  first_name: string;
  full_name: string;
  email: string;
  role: string;
  /** Theirs, or the organization's when they have not set one. */
  timezone: string;
  organization: { uuid: string; name: string };
}
