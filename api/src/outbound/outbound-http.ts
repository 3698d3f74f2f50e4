import { createRequire } from 'node:module';
import type { Agent } from 'undici';
import { DestinationNotAllowed, assertLiteralAllowed, checkingLookup, systemResolver } from './address-policy.ts';
import type { Resolver } from './address-policy.ts';

export interface OutboundHttpOptions {
  allowPrivate: boolean;
  /**
   * For a destination the operator configured (LLM_BASE_URL), not one a user supplied: plain http:// and any
   * address are allowed, since a model server on the same machine or network is the usual set-up.
   */
  operatorConfigured?: boolean;
  timeoutMs: number;
  /** Extra trusted CA certificates (tests); by default the system store plus NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer | (string | Buffer)[];
  resolve?: Resolver;
  connections?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** At most 64 KiB of the body, as text. */
  body: string;
  durationMs: number;
}

export interface OutboundRequest {
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Shorter than the client's own, for a call made while a request waits (Slack wants an answer within 3 s). */
  timeoutMs?: number;
}

const MAX_BODY = 64 * 1024;

const require = createRequire(import.meta.url);

type RequestOptions = { origin: string; path: string; method: string; headers?: Record<string, string>; body?: string; signal: AbortSignal };
type Undici = {
  Agent: typeof Agent;
  request: (this: Agent, options: RequestOptions) => ReturnType<typeof import('undici').request>;
  parseURL: (url: URL) => URL;
};

/**
 * undici's Agent and its `request`, without its index: that loads everything else undici has (fetch, WebSocket,
 * EventSource, caches, mocks), 5.3 MB of heap against 2.5 MB for these (measured in a fresh process). `send` does
 * what the index's `request(url, options)` does before calling it (`makeDispatcher`): parse the URL as undici
 * does, and pass its origin and path. undici 8 has no `exports` map, so these files are its public layout; the
 * outbound tests run through them.
 */
function loadUndici(): Undici {
  return {
    Agent: require('undici/lib/dispatcher/agent.js') as Undici['Agent'],
    request: require('undici/lib/api/api-request.js') as Undici['request'],
    parseURL: (require('undici/lib/core/util.js') as { parseURL: Undici['parseURL'] }).parseURL,
  };
}

/**
 * Every request Rollcall sends to the outside (webhooks, chat platforms) goes through this one undici Agent:
 * its connect-time `lookup` refuses forbidden addresses, IP-literal hosts are checked before connecting,
 * redirects are never followed (undici's request does not follow them), and each request has a hard timeout.
 * Node's global fetch ignores http.Agent, so the dispatcher is explicit.
 */
export class OutboundHttp {
  readonly #options: OutboundHttpOptions;
  /** undici's Agent and request are loaded with the first outbound request, not at start. */
  #client: { agent: Agent; undici: Undici } | null = null;
  constructor(options: OutboundHttpOptions) {
    this.#options = options;
  }

  #connect() {
    const options = this.#options;
    if (this.#client) return this.#client;
    const undici = loadUndici();
    this.#client = {
      undici,
      agent: new undici.Agent({
        connections: options.connections ?? 64,
        keepAliveTimeout: 10_000,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        connect: {
          timeout: Math.min(10_000, options.timeoutMs),
          lookup: checkingLookup(options.resolve ?? systemResolver, options.allowPrivate || options.operatorConfigured === true),
          ...(options.ca ? { ca: options.ca } : {}),
        } as Agent.Options['connect'],
      }),
    };
    return this.#client;
  }

  async send(req: OutboundRequest): Promise<OutboundResponse> {
    const url = new URL(req.url);
    if (!this.#options.operatorConfigured) assertLiteralAllowed(url, this.#options.allowPrivate);
    const { agent, undici } = this.#connect();
    const started = performance.now();
    const target = undici.parseURL(url);
    const res = await undici.request.call(agent, {
      origin: target.origin,
      path: target.search ? `${target.pathname}${target.search}` : target.pathname,
      method: req.method ?? 'POST',
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(Math.min(req.timeoutMs ?? Infinity, this.#options.timeoutMs)),
    });
    let body = '';
    for await (const chunk of res.body) {
      if (body.length < MAX_BODY) body += (chunk as Buffer).toString('utf8');
    }
    return { status: res.statusCode, headers: res.headers, body: body.slice(0, MAX_BODY), durationMs: Math.round(performance.now() - started) };
  }

  async close(): Promise<void> {
    if (this.#client) await this.#client.agent.close();
  }
}

/** A short, secret-free description of a network error for the attempts log. */
export function describeError(err: unknown): string {
  if (err instanceof DestinationNotAllowed) return `destination_not_allowed: ${err.message}`;
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.cause instanceof DestinationNotAllowed) return `destination_not_allowed: ${e.cause.message}`;
  if (e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  const code = e?.code ?? e?.cause?.code;
  return [code, e?.message ?? String(err)].filter(Boolean).join(': ').slice(0, 500);
}

export function isDestinationRefusal(err: unknown): boolean {
  const e = err as { cause?: unknown };
  return err instanceof DestinationNotAllowed || e?.cause instanceof DestinationNotAllowed;
}

/** Retry-After in milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(value: string | string[] | undefined, now: Date): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
