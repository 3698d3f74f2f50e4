import type { Context } from 'koa';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../auth/credentials.ts';
import { forbidden } from '../lib/errors.ts';
import type { ApiError } from '../lib/errors.ts';
import { requestOrigin } from './forwarded.ts';

/**
 * The web app's session (`/app/`): the CLI token the e-mailed code earns, held by the browser in a cookie that
 * no script can read (HttpOnly) and that no other site's page sends (SameSite=Strict). The token never reaches
 * the page.
 *
 * Over HTTPS (REQUIRE_HTTPS, or a request that reached us over HTTPS) it is `__Host-rollcall_session`: Secure,
 * Path=/ and no Domain, as the prefix requires, so no sibling subdomain can set one for this host. Path=/ means the
 * browser also sends it to the app's pages and to /mcp; the API reads it under /v1/ only (`sessionCookieRefusal`).
 * Over plain HTTP (a laptop) it keeps the plain name `rollcall_session`, for the API's paths only (Path=/v1/).
 */
export function setSessionCookie(ctx: Context, token: string, expiresAt: string, now: Date, requireHttps: boolean): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));
  if (!secureSession(ctx, requireHttps)) {
    ctx.append('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=/v1/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict`);
    return;
  }
  ctx.append('Set-Cookie', `${SECURE_SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict; Secure`);
  // A plain-named session this server set before (it is no longer read over HTTPS) is dropped.
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=; Path=/v1/; Max-Age=0; HttpOnly; SameSite=Strict; Secure`);
}

/** Tells the browser to forget the session (sign-out); harmless to a client that holds no cookie. */
export function clearSessionCookie(ctx: Context, requireHttps: boolean): void {
  const secure = secureSession(ctx, requireHttps);
  if (secure) ctx.append('Set-Cookie', `${SECURE_SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure`);
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=; Path=/v1/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
}

/** Whether the request's session cookie is the HTTPS one (`__Host-`): under REQUIRE_HTTPS, or reached over HTTPS. */
export const secureSession = (ctx: Context, requireHttps: boolean): boolean => requireHttps || requestOrigin(ctx).protocol === 'https';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin the app's pages are served from: PUBLIC_URL's when set, else the address this request reached. */
export function ownOrigin(ctx: Context, publicUrl: string | null): string {
  return publicUrl ? new URL(publicUrl).origin : `${ctx.protocol}://${ctx.host}`;
}

/**
 * Why a request may not use the session cookie it sent, or null. The cookie is the web app's credential for the
 * API under /v1/, nothing else: /mcp names API keys and Bearer tokens only, and no browser page should drive it
 * with a person's session (Path=/ sends the cookie there too). Then the cross-origin rule for writes.
 */
export function sessionCookieRefusal(ctx: Context, publicUrl: string | null): ApiError | null {
  if (!ctx.path.toLowerCase().startsWith('/v1/')) {
    return forbidden('credential_not_accepted', `${ctx.path.slice(0, 100)} takes an API key (X-API-KEY, or Authorization: Bearer) or a CLI token (Authorization: Bearer), not the web app's session cookie.`);
  }
  return crossOriginRefusal(ctx, publicUrl);
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
