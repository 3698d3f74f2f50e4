import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';

/** One REST call a tool stands for. */
export interface RestCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path with its parameters filled in, e.g. `/v1/plan/tasks/ENG-3/move/`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Request headers the tool's arguments set (If-Match from a `version`). */
  headers?: Record<string, string>;
}

/** What the REST route answered: its status, body and headers, exactly as an HTTP client would have seen them. */
export interface RestAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The request headers a tool call carries over from its /mcp request: the credential and the attribution. */
const FORWARDED_HEADERS = ['x-api-key', 'authorization', 'x-exchange-token', 'x-service-agent-name', 'x-dailybot-agent-name', 'host', 'user-agent'];

export type Dispatch = (outer: Context, call: RestCall) => Promise<RestAnswer>;

/**
 * Runs a tool's REST call in this process, through the app's own error handler and routers: the same
 * authentication, method matrix, plan checks, scopes, hourly budgets, daily caps, Plan gate, idempotency,
 * validation, service and presenter as the HTTP request would meet, and the same error bodies. No socket, no
 * serialisation: the body is handed over as the value the JSON parser would have produced (the /mcp request's
 * own body went through that parser, with its size, depth and NUL-character limits).
 */
export function makeDispatch(app: Koa, routeMiddleware: Middleware[]): Dispatch {
  const run = (ctx: Context, i = 0): Promise<void> => {
    const middleware = routeMiddleware[i];
    return middleware ? Promise.resolve(middleware(ctx, () => run(ctx, i + 1))) : Promise.resolve();
  };
  return async function dispatch(outer, call) {
    const req = new IncomingMessage(new Socket());
    req.method = call.method;
    const query = call.query && Object.keys(call.query).length > 0 ? `?${new URLSearchParams(call.query)}` : '';
    req.url = `${call.path}${query}`;
    for (const name of FORWARDED_HEADERS) {
      const value = outer.headers[name];
      if (value !== undefined) req.headers[name] = value;
    }
    Object.assign(req.headers, call.headers);
    if (call.body !== undefined) req.headers['content-type'] = 'application/json';
    const res = new ServerResponse(req);
    const ctx = app.createContext(req, res);
    // The client's address and the request id, as the /mcp request established them (http/forwarded.ts); the
    // route authenticates the caller itself.
    const { actor: _actor, ...state } = outer.state as Record<string, unknown>;
    Object.assign(ctx.state, state);
    if (call.body !== undefined) (ctx.request as { body?: unknown }).body = call.body;
    await run(ctx);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.getHeaders())) if (value !== undefined) headers[name] = String(value);
    return { status: ctx.status, body: ctx.body ?? null, headers };
  };
}
