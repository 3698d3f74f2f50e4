import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.ts';

const seriesLines = (text: string) => text.split('\n').filter((line) => line.startsWith('rollcall_http_')).sort();

describe('request metrics', () => {
  it('exposes the same series as prom-client\'s own Counter and Histogram fed request by request', async () => {
    const metrics = createMetrics();
    const reference = new client.Registry();
    const counter = new client.Counter({
      name: 'rollcall_http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [reference],
    });
    const histogram = new client.Histogram({
      name: 'rollcall_http_request_duration_seconds',
      help: 'HTTP request duration by method and route',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [reference],
    });
    const requests: [string, string, number, number][] = [
      ['GET', '/v1/me/', 200, 0.0004],
      ['GET', '/v1/me/', 200, 0.005], // on a bucket's bound: counted in that bucket
      ['GET', '/v1/me/', 401, 0.002],
      ['POST', '/v1/agents/:uuid/reports/', 201, 0.03],
      ['GET', 'unmatched', 404, 3], // above every bound: only +Inf
      ['GET', 'quote"back\\slash', 200, 0.2], // label values are escaped
    ];
    for (const [method, route, status, seconds] of requests) {
      metrics.recordRequest(method, route, status, seconds);
      counter.inc({ method, route, status: String(status) });
      histogram.observe({ method, route }, seconds);
    }
    const ours = seriesLines(await metrics.registry.metrics());
    expect(ours).toEqual(seriesLines(await reference.metrics()));
    expect(ours).toContain('rollcall_http_requests_total{method="GET",route="/v1/me/",status="200"} 2');
    expect(ours).toContain('rollcall_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/v1/me/"} 3');
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE rollcall_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE rollcall_http_requests_total counter');
    expect(text).toContain('process_resident_memory_bytes');
  });
});
