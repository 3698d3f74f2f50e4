import type { Context } from 'koa';
import { SESSION_COOKIE } from '../auth/credentials.ts';
import { forbidden } from '../lib/errors.ts';
import type { ApiError } from '../lib/errors.ts';

/**
 * The web app's session (`/app/`): the CLI token the e-mailed code earns, held by the browser in a cookie that
 * no script can read (HttpOnly), that no other site's page sends (SameSite=Strict), only over HTTPS when the
 * server requires it (Secure), and only to the API's own paths (Path=/v1/). The token never reaches the page.
 */
export function setSessionCookie(ctx: Context, token: string, expiresAt: string, now: Date, secure: boolean): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=/v1/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
}

/** Tells the browser to forget the session (sign-out); harmless to a client that holds no cookie. */
export function clearSessionCookie(ctx: Context, secure: boolean): void {
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=; Path=/v1/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin the app's pages are served from: PUBLIC_URL's when set, else the address this request reached. */
export function ownOrigin(ctx: Context, publicUrl: string | null): string {
  return publicUrl ? new URL(publicUrl).origin : `${ctx.protocol}://${ctx.host}`;
}

/**
 * A write authenticated by the session cookie must come from the app's own pages: browsers send `Origin` on every
 * cross-site and every non-GET fetch, so a missing or foreign one is refused (cross-site request forgery, beside
 * SameSite=Strict for older browsers and same-site subdomains). Reads are not refused: another site cannot read
 * the answer of a request it makes (no CORS headers are ever sent).
 */
export function crossOriginRefusal(ctx: Context, publicUrl: string | null): ApiError | null {
  if (SAFE_METHODS.has(ctx.method)) return null;
  const origin = ctx.get('Origin');
  if (origin && origin === ownOrigin(ctx, publicUrl)) return null;
  return forbidden(
    'cross_origin_request',
    origin
      ? `This write was signed in with Rollcall's session cookie but came from another site (${origin.slice(0, 200)}); only the app's own pages may use the session.`
      : "This write was signed in with Rollcall's session cookie but carries no Origin header; only the app's own pages may use the session.",
  );
}

/**
 * An anonymous call that sets the session (accepting an invitation with `session: true`) must come from the app's
 * own pages too: another site's page must not sign a visitor in as someone else (login cross-site request forgery).
 */
export function sessionOriginRefusal(ctx: Context, publicUrl: string | null): ApiError | null {
  const origin = ctx.get('Origin');
  if (origin && origin === ownOrigin(ctx, publicUrl)) return null;
  return forbidden(
    'cross_origin_request',
    origin
      ? `A session is set only for Rollcall's own pages; this request came from another site (${origin.slice(0, 200)}).`
      : "A session is set only for Rollcall's own pages; this request carries no Origin header (leave out session: true to accept without signing in).",
  );
}
