import { createPublicKey, createSign, createVerify } from 'node:crypto';
import type { JsonWebKeyInput, KeyObject } from 'node:crypto';
import { ApiError, unauthorized } from '../../lib/errors.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { PlatformError, checkStatus, parseJsonBody } from './platform-http.ts';
import type { ChatRequestDeps } from './request-deps.ts';

/**
 * RS256 JSON Web Tokens, as the Bot Framework (Microsoft Teams) and Google Chat sign the requests they send, and as
 * a Google service account signs its token request. node:crypto verifies RS256 with a key read from a JWK, so this
 * is ours rather than `jose`: the checks a platform's token needs (algorithm, key id, issuer, audience, expiry) are
 * a page, and the signing keys are fetched through OutboundHttp (the address policy, our timeouts) like every call.
 */

export interface JwtClaims {
  iss?: unknown;
  aud?: unknown;
  exp?: unknown;
  nbf?: unknown;
  iat?: unknown;
  [claim: string]: unknown;
}

/** Why a token is refused: `malformed` (not a JWT of ours to read), `expired`, or `invalid` (anything else). */
export class JwtRefused extends Error {
  readonly reason: 'malformed' | 'expired' | 'invalid';
  constructor(reason: JwtRefused['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

const b64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

function parseJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A token's header and claims, unverified: to pick the connection its audience names before verifying. */
export function readJwt(token: string): { header: Record<string, unknown>; claims: JwtClaims; signed: string; signature: Buffer } {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) throw new JwtRefused('malformed', 'not a JWT');
  const header = parseJson(parts[0]);
  const claims = parseJson(parts[1]);
  if (!header || !claims) throw new JwtRefused('malformed', 'not a JWT');
  return { header, claims, signed: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2], 'base64url') };
}

/** Keys by id, as a JWKS lists them (`{keys: [{kid, kty: "RSA", n, e, …}]}`), with what else each key says (Bot Framework `endorsements`). */
export interface SigningKey {
  key: KeyObject;
  endorsements: string[] | null;
}

export interface VerifyOptions {
  /** The signing key of a key id, or null when the issuer has none by that id. */
  keyOf(kid: string): Promise<SigningKey | null>;
  issuers: readonly string[];
  audience: string;
  now: Date;
  /** Clock skew allowed on expiry and not-before (the Bot Framework allows 5 minutes). */
  skewMs: number;
  /** The platform channel the key must be endorsed for (Bot Framework: `msteams`), when the key says. */
  endorsement?: string;
}

/** Verifies an RS256 JWT: its algorithm, its key (by id), the signature, the issuer, the audience, the time. */
export async function verifyJwt(token: string, options: VerifyOptions): Promise<JwtClaims> {
  const { header, claims, signed, signature } = readJwt(token);
  if (header.alg !== 'RS256') throw new JwtRefused('invalid', `alg ${String(header.alg)} is not RS256`);
  if (typeof header.kid !== 'string' || header.kid === '' || header.kid.length > 200) throw new JwtRefused('invalid', 'no key id');
  const signing = await options.keyOf(header.kid);
  if (!signing) throw new JwtRefused('invalid', 'unknown key id');
  if (!createVerify('RSA-SHA256').update(signed).verify(signing.key, signature)) throw new JwtRefused('invalid', 'bad signature');
  if (options.endorsement && signing.endorsements && !signing.endorsements.includes(options.endorsement)) throw new JwtRefused('invalid', 'key not endorsed for the channel');
  if (typeof claims.iss !== 'string' || !options.issuers.includes(claims.iss)) throw new JwtRefused('invalid', 'wrong issuer');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(options.audience)) throw new JwtRefused('invalid', 'wrong audience');
  const now = options.now.getTime();
  if (typeof claims.exp !== 'number' || claims.exp * 1000 + options.skewMs < now) throw new JwtRefused('expired', 'expired');
  if (typeof claims.nbf === 'number' && claims.nbf * 1000 - options.skewMs > now) throw new JwtRefused('invalid', 'not valid yet');
  return claims;
}

/** Signs claims as an RS256 JWT with a PEM private key (a Google service account's token request). */
export function signJwt(claims: Record<string, unknown>, privateKeyPem: string, kid?: string): string {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', ...(kid ? { kid } : {}) }));
  const body = b64url(JSON.stringify(claims));
  const signature = createSign('RSA-SHA256').update(`${head}.${body}`).sign(privateKeyPem);
  return `${head}.${body}.${b64url(signature)}`;
}

/** How long fetched keys are kept (issuers rotate them over days), and the least time between two fetches. */
const KEYS_FOR_MS = 24 * 3_600_000;
const REFETCH_AFTER_MS = 5 * 60_000;

/**
 * An issuer's signing keys, fetched from its JWKS URL (or first from its OpenID metadata's `jwks_uri`), kept a day
 * and fetched again when a token names a key id not among them (a rotation), at most every 5 minutes, so tokens
 * with made-up key ids cannot make us call the issuer on every request.
 */
export class KeySet {
  readonly #http: OutboundHttp;
  readonly #url: string;
  readonly #metadata: boolean;
  #keys = new Map<string, SigningKey>();
  #fetchedAt = -Infinity;
  #fetching: Promise<void> | null = null;

  /** `url`: a JWKS, or with `metadata` an OpenID configuration naming one. */
  constructor(http: OutboundHttp, url: string, options: { metadata?: boolean } = {}) {
    this.#http = http;
    this.#url = url;
    this.#metadata = options.metadata ?? false;
  }

  async keyOf(kid: string, now: Date): Promise<SigningKey | null> {
    const age = now.getTime() - this.#fetchedAt;
    if (age > KEYS_FOR_MS || (!this.#keys.has(kid) && age > REFETCH_AFTER_MS)) {
      this.#fetching ??= this.#fetch(now).finally(() => (this.#fetching = null));
      await this.#fetching;
    }
    return this.#keys.get(kid) ?? null;
  }

  async #get(url: string): Promise<Record<string, unknown>> {
    const res = await this.#http.send({ method: 'GET', url, headers: { accept: 'application/json' }, timeoutMs: 2_000 });
    checkStatus(res, `signing keys ${url}`);
    return parseJsonBody(res);
  }

  async #fetch(now: Date): Promise<void> {
    let url = this.#url;
    if (this.#metadata) {
      const jwksUri = (await this.#get(url)).jwks_uri;
      if (typeof jwksUri !== 'string') throw new PlatformError(`signing keys: ${url} names no jwks_uri`);
      url = jwksUri;
    }
    const keys = (await this.#get(url)).keys;
    const found = new Map<string, SigningKey>();
    for (const jwk of Array.isArray(keys) ? keys : []) {
      if (typeof jwk?.kid !== 'string' || jwk.kty !== 'RSA') continue;
      try {
        const key = createPublicKey({ key: jwk as JsonWebKeyInput['key'], format: 'jwk' });
        found.set(jwk.kid, { key, endorsements: Array.isArray(jwk.endorsements) ? jwk.endorsements.map(String) : null });
      } catch {
        // A key we cannot read verifies nothing; the others still do.
      }
    }
    this.#keys = found;
    this.#fetchedAt = now.getTime();
  }
}

/**
 * The JWT of a platform's `Authorization: Bearer <JWT>` header. Anything but a bearer JWT (an API key, a CLI token)
 * is no credential to these routes: 401 `credential_absent`; a JWT-shaped value that is not one, `credential_malformed`.
 */
export function bearerJwt(authorization: string | undefined): string {
  const bearer = /^Bearer (\S+\.\S+\.\S*)$/.exec(authorization ?? '');
  if (!bearer) throw unauthorized('credential_absent');
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(bearer[1]) || bearer[1].length > 8192) throw unauthorized('credential_malformed');
  return bearer[1];
}

/** A token refused as a 401 (expired, unreadable, anything else), or 503 when the signing keys could not be fetched. */
export function tokenRefusal(err: unknown, whose: string): never {
  if (err instanceof JwtRefused) throw unauthorized(err.reason === 'expired' ? 'credential_expired' : err.reason === 'malformed' ? 'credential_malformed' : 'invalid_credentials');
  if (err instanceof PlatformError) throw new ApiError(503, 'platform_unreachable', `${whose} signing keys could not be fetched; the platform sends the request again.`);
  throw err;
}

/** What a platform's request handler needs of the app (its routes build it from Deps). */
export interface RequestDeps extends ChatRequestDeps {
  /** The platform's signing keys, kept. */
  keys: KeySet;
}
