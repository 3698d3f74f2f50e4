import type { Context, Middleware, Next } from 'koa';
import type { Deps } from '../http/deps.ts';
import type { Middlewares } from '../http/middlewares.ts';
import type { Dispatch } from './dispatch.ts';
import { MCP_PATH } from './path.ts';

/**
 * The MCP endpoint (`endpoint.ts`), loaded with the first request to /mcp: its SDK, with zod and Ajv, is about
 * 10 MB of heap and 40 MB of resident memory once loaded (measured in a fresh process), which a server that
 * no agent talks to over MCP never needs, and which every V8 heap limit multiplies (docs/architecture.md, Memory).
 * Every other request passes through as it did past the endpoint itself.
 */
export function lazyMcpEndpoint(deps: Pick<Deps, 'db' | 'clock' | 'credentialCache' | 'logger'>, mw: Pick<Middlewares, 'authenticate' | 'rateLimit'>, dispatch: Dispatch): Middleware {
  let endpoint: Promise<Middleware> | null = null;
  return function mcp(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== MCP_PATH) return next();
    endpoint ??= import('./endpoint.ts').then((loaded) => loaded.mcpEndpoint(deps, mw, dispatch));
    return endpoint.then((middleware) => middleware(ctx, next) as Promise<void>);
  };
}
