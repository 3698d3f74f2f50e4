/** What every platform's HTTP calls share: the failure a delivery retries or gives up on, and plain webhook posts. */
import type { OutboundHttp, OutboundResponse } from '../../outbound/outbound-http.ts';
import { retryAfterMs } from '../../outbound/outbound-http.ts';

export class PlatformError extends Error {
  readonly statusCode: number | null;
  readonly permanent: boolean;
  readonly retryAfterMs: number | null;
  constructor(message: string, options: { statusCode?: number | null; permanent?: boolean; retryAfterMs?: number | null } = {}) {
    super(message);
    this.statusCode = options.statusCode ?? null;
    this.permanent = options.permanent ?? false;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

export function checkStatus(res: OutboundResponse, what: string): void {
  if (res.status >= 200 && res.status < 300) return;
  throw new PlatformError(`${what}: HTTP ${res.status}`, {
    statusCode: res.status,
    permanent: res.status === 400 || res.status === 401 || res.status === 403 || res.status === 404 || res.status === 410,
    retryAfterMs: retryAfterMs(res.headers['retry-after'], new Date()),
  });
}

export const parseJsonBody = (res: OutboundResponse): Record<string, unknown> => {
  try {
    return JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    return {};
  }
};

export async function postWebhook(http: OutboundHttp, method: 'POST' | 'PATCH', url: string, body: Record<string, unknown>, what: string): Promise<Record<string, unknown>> {
  const res = await http.send({ method, url, headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Rollcall/1.0' }, body: JSON.stringify(body) });
  checkStatus(res, what);
  return parseJsonBody(res);
}
