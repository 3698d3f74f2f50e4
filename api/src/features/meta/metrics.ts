import client from 'prom-client';
import type { Context, Next } from 'koa';

/** Prometheus metrics for one app instance (its own registry, so tests can build many apps). */
export function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: 'rollcall_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'rollcall_http_request_duration_seconds',
    help: 'HTTP request duration by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  async function measure(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      // The route pattern, never the raw path: raw paths carry ids and would explode the label set.
      const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      requests.inc({ method: ctx.method, route: String(route), status: String(ctx.status) });
      duration.observe({ method: ctx.method, route: String(route) }, seconds);
    }
  }

  return { registry, measure };
}

export type Metrics = ReturnType<typeof createMetrics>;
