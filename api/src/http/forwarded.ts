import type { Context } from 'koa';
import { isIP } from 'node:net';
import { plainAddress, proxyTrust } from '../lib/trust-proxy.ts';
import type { TrustProxy } from '../lib/trust-proxy.ts';

/** Where the client reached us: the scheme and host[:port] links are built from when PUBLIC_URL is not set. */
export interface RequestOrigin {
  protocol: 'http' | 'https';
  host: string;
}

/** A host name or an IP literal ([…] for IPv6), with an optional port: what may stand between `//` and the path. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?)(?::\d{1,5})?$/;

/**
 * Hosts already judged: nearly every request names one of a few (the server's own names), and judging one
 * (a pattern and a URL parse) cost about 4 µs of a 160 µs `/v1/me/`. Bounded: cleared when full.
 */
const judgedHosts = new Map<string, string | null>();
const JUDGED_HOSTS_MAX = 256;

/** A host as given, or null unless it is one (no spaces, slashes, user info or junk; at most 260 characters). */
export function validHost(value: string | undefined): string | null {
  if (value === undefined || value.length > 260) return null;
  const known = judgedHosts.get(value);
  if (known !== undefined) return known;
  const judged = judgeHost(value);
  if (judgedHosts.size >= JUDGED_HOSTS_MAX) judgedHosts.clear();
  judgedHosts.set(value, judged);
  return judged;
}

function judgeHost(value: string): string | null {
  const host = value.trim();
  if (host.length === 0 || host.length > 260 || !HOST.test(host)) return null;
  const port = /:(\d+)$/.exec(host.startsWith('[') ? host.slice(host.indexOf(']')) : host);
  if (port && Number(port[1]) > 65535) return null;
  try {
    new URL(`http://${host}/`); // an IPv6 literal the pattern lets through may still not be one
  } catch {
    return null;
  }
  return host;
}

/** The first value of a header a proxy may have appended to (`a, b`), or undefined. */
function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',', 1)[0].trim();
}

/** Our own end of the connection, as a host: the last resort when the request names no usable host. */
function localHost(ctx: Context): string {
  const address = plainAddress(ctx.socket.localAddress ?? '127.0.0.1');
  return `${isIP(address) === 6 ? `[${address}]` : address}:${ctx.socket.localPort ?? 80}`;
}

/** How a request's forwarded headers are believed: the app's TRUST_PROXY, which the frame hands each request. */
export interface Forwarded {
  trust: TrustProxy;
  trusted: ReturnType<typeof proxyTrust>;
}

export const forwardedFrom = (trust: TrustProxy): Forwarded => ({ trust, trusted: proxyTrust(trust) });

interface ForwardedState {
  forwarded?: Forwarded;
  origin?: RequestOrigin;
  client?: string;
}

/**
 * Who the client is and where it reached us, believing X-Forwarded-* headers only from trusted proxies
 * (TRUST_PROXY) and only when they are well formed; anything else is ignored, never an error. Worked out on the
 * first ask and kept in `ctx.state`: most requests never ask (a link, REQUIRE_HTTPS, a session cookie or a
 * per-address budget does), and the frame only hands over `ctx.state.forwarded`.
 *
 * - The client's address (`clientAddress`, the per-address budgets' key) walks X-Forwarded-For from the nearest
 *   hop: while the connection it came from is a trusted proxy and the proxy named a valid address, that address
 *   is the next hop. A client that writes its own X-Forwarded-For without a trusted proxy in front is its socket.
 * - The scheme and host (`requestOrigin`: the REQUIRE_HTTPS check, and links when PUBLIC_URL is unset) come
 *   from X-Forwarded-Proto (`http` or `https`) and X-Forwarded-Host when the peer is a trusted proxy, else from
 *   the connection and the Host header; a host that is not one is ignored.
 */
function viaTrustedProxy(ctx: Context, forwarded: Forwarded): boolean {
  return forwarded.trust !== null && forwarded.trusted(ctx.socket.remoteAddress ?? '', 0);
}

/** The client's address: its socket's, or the one trusted proxies name for it. */
export function clientAddress(ctx: Context): string {
  const state = ctx.state as ForwardedState;
  if (state.client !== undefined) return state.client;
  const forwarded = state.forwarded;
  let client = plainAddress(ctx.socket.remoteAddress ?? '');
  if (forwarded && viaTrustedProxy(ctx, forwarded)) {
    const header = ctx.req.headers['x-forwarded-for'];
    const chain = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((entry) => entry.trim()).reverse();
    for (let hop = 0; hop < chain.length && forwarded.trusted(client, hop); hop++) {
      if (isIP(chain[hop]) === 0) break;
      client = plainAddress(chain[hop]);
    }
  }
  return (state.client = client);
}

/** The request's scheme and host as trusted proxies or the connection give them (`http://localhost` outside the app, as in unit tests). */
export function requestOrigin(ctx: Context): RequestOrigin {
  const state = ctx.state as ForwardedState;
  if (state.origin) return state.origin;
  const forwarded = state.forwarded;
  if (!forwarded) return { protocol: 'http', host: 'localhost' };
  const viaProxy = viaTrustedProxy(ctx, forwarded);
  const forwardedProto = viaProxy ? first(ctx.req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const protocol = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : ctx.protocol === 'https' ? 'https' : 'http';
  const host = (viaProxy ? validHost(first(ctx.req.headers['x-forwarded-host'])) : null) ?? validHost(ctx.req.headers.host) ?? localHost(ctx);
  return (state.origin = { protocol, host });
}

/** The absolute base of links the API gives out: PUBLIC_URL when set, else the trusted origin of the request. */
export function publicBase(ctx: Context, publicUrl: string | null): string {
  if (publicUrl) return publicUrl;
  const { protocol, host } = requestOrigin(ctx);
  return `${protocol}://${host}`;
}
