import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { PlatformError, checkStatus, parseJsonBody } from './platform-http.ts';

/**
 * OAuth 2 access tokens a platform's API wants (Teams: client credentials at the Microsoft identity platform;
 * Google Chat: a service account's signed assertion), kept in memory until a minute before they expire, by a hash
 * of what was asked (credentials included), so a changed secret asks again. Requested with a form POST through
 * OutboundHttp; a refusal (400, 401) is permanent, the delivery fails and says why.
 */
const tokens = new Map<string, { token: string; until: number }>();
const MAX_TOKENS = 1_000;

export async function accessToken(
  http: OutboundHttp, url: string, form: Record<string, string>, now: Date, timeoutMs?: number,
  /** A signed assertion (Google): made only when a token must be asked for, the token kept by the account. */
  assertion?: { account: string; build: () => string },
): Promise<string> {
  const key = sha256Hex(`${url}\n${JSON.stringify(form)}\n${assertion?.account ?? ''}`);
  const kept = tokens.get(key);
  if (kept && kept.until > now.getTime()) return kept.token;
  const body = new URLSearchParams({ ...form, ...(assertion ? { assertion: assertion.build() } : {}) });
  const res = await http.send({
    method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: body.toString(), timeoutMs,
  });
  checkStatus(res, 'access token');
  const json = parseJsonBody(res);
  if (typeof json.access_token !== 'string' || json.access_token === '') throw new PlatformError('access token: no access_token in the answer', { statusCode: res.status, permanent: true });
  const lifetime = typeof json.expires_in === 'number' ? json.expires_in : Number(json.expires_in ?? 3600) || 3600;
  if (tokens.size >= MAX_TOKENS) tokens.delete(tokens.keys().next().value!);
  tokens.set(key, { token: json.access_token, until: now.getTime() + Math.max(0, lifetime - 60) * 1000 });
  return json.access_token;
}
