import type { OutboundHttp, OutboundResponse } from './outbound-http.ts';
import { describeError, isDestinationRefusal, retryAfterMs } from './outbound-http.ts';
import type { SendResult } from './types.ts';
import { describeLocalFailure, isLocalFailure } from './failures.ts';

/** 2xx delivered; 410 gone (the endpoint is disabled); anything else, redirects included, is retried. */
export function resultOf(res: OutboundResponse, now: Date): SendResult {
  const base = { statusCode: res.status, durationMs: res.durationMs };
  if (res.status >= 200 && res.status < 300) return { ...base, outcome: 'delivered' };
  if (res.status === 410) return { ...base, outcome: 'gone', error: 'gone: the destination answered 410; endpoint disabled' };
  const location = res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : '';
  return { ...base, outcome: 'retry', error: `HTTP ${res.status}${location}`, retryAfterMs: retryAfterMs(res.headers['retry-after'], now) };
}

/** A send that threw: a refused address or a local failure (outbound/failures.ts) is final, anything else is retried. */
export function errorResult(err: unknown, durationMs: number): SendResult {
  // A refused address is not going to become allowed by waiting.
  if (isDestinationRefusal(err)) return { outcome: 'failed', error: describeError(err), durationMs };
  if (isLocalFailure(err)) return { outcome: 'failed', error: describeLocalFailure(err), durationMs };
  return { outcome: 'retry', error: describeError(err), durationMs };
}

/** POSTs a JSON body and maps the answer to a SendResult. */
export async function postJson(http: OutboundHttp, url: string, headers: Record<string, string>, body: string, now: Date): Promise<SendResult> {
  const t0 = performance.now();
  try {
    const res = await http.send({ url, headers: { 'content-type': 'application/json', 'user-agent': 'Rollcall-Webhooks/1.0', ...headers }, body });
    return resultOf(res, now);
  } catch (err) {
    return errorResult(err, Math.round(performance.now() - t0));
  }
}
