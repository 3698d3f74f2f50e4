import client from 'prom-client';

const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RequestSeries {
  method: string;
  route: string;
  status: string;
  count: number;
  sum: number;
  /** Requests per duration bucket (not cumulative); one more slot than DURATION_BUCKETS, for +Inf. */
  buckets: number[];
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** The series of one method and route: one entry per status seen. The frame keeps one per static route. */
export interface RouteSeries {
  method: string;
  route: string;
  byStatus: Map<number, RequestSeries>;
}

/**
 * Prometheus metrics for one app instance (its own registry, so tests can build many apps): the process's
 * default metrics, and HTTP requests by method, route and status.
 *
 * The request series are counted here and handed to the registry only when /metrics is read. prom-client's
 * labelled `inc()` and `observe()` validate and hash their labels on every call: 3.5 µs of a 40 µs request
 * (measured). Here a request costs a lookup of its status in its route's series, which the frame holds for
 * each static route (`routeSeries`), so no label string is built per request.
 */
export function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const routes = new Map<string, RouteSeries>();

  /** The series of `method` on `route`: the matched pattern, never the raw path (ids would explode the label set). */
  function routeSeries(method: string, route: string): RouteSeries {
    const key = `${method} ${route}`;
    let found = routes.get(key);
    if (!found) routes.set(key, (found = { method, route, byStatus: new Map() }));
    return found;
  }

  function record(of: RouteSeries, status: number, seconds: number): void {
    let entry = of.byStatus.get(status);
    if (!entry) {
      entry = { method: of.method, route: of.route, status: String(status), count: 0, sum: 0, buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0) };
      of.byStatus.set(status, entry);
    }
    entry.count += 1;
    entry.sum += seconds;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket += 1;
    entry.buckets[bucket] += 1;
  }

  function recordRequest(method: string, route: string, status: number, seconds: number): void {
    record(routeSeries(method, route), status, seconds);
  }

  const series = (): RequestSeries[] => [...routes.values()].flatMap((of) => [...of.byStatus.values()]);

  function requestCounts(): MetricValue[] {
    return series().map((s) => ({ labels: { method: s.method, route: s.route, status: s.status }, value: s.count }));
  }

  /** The histogram is by method and route: the series of each status are added up. */
  function requestDurations(): MetricValue[] {
    const byRoute = new Map<string, { method: string; route: string; count: number; sum: number; buckets: number[] }>();
    for (const s of series()) {
      const key = `${s.method} ${s.route}`;
      const total = byRoute.get(key) ?? { method: s.method, route: s.route, count: 0, sum: 0, buckets: new Array<number>(s.buckets.length).fill(0) };
      total.count += s.count;
      total.sum += s.sum;
      s.buckets.forEach((n, i) => (total.buckets[i] += n));
      byRoute.set(key, total);
    }
    const name = 'rollcall_http_request_duration_seconds';
    return [...byRoute.values()].flatMap(({ method, route, count, sum, buckets }): MetricValue[] => {
      let cumulative = 0;
      const bounded = DURATION_BUCKETS.map((le, i) => {
        cumulative += buckets[i];
        return { metricName: `${name}_bucket`, labels: { le, method, route }, value: cumulative };
      });
      return [
        ...bounded,
        { metricName: `${name}_bucket`, labels: { le: '+Inf', method, route }, value: count },
        { metricName: `${name}_sum`, labels: { method, route }, value: sum },
        { metricName: `${name}_count`, labels: { method, route }, value: count },
      ];
    });
  }

  // The registry asks each registered metric for get() and formats (and escapes) what it returns.
  const scraped = (name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[]) =>
    ({ name, help, type, aggregator: 'sum', get: async () => ({ name, help, type, aggregator: 'sum', values: values() }) }) as unknown as client.Metric;
  registry.registerMetric(scraped('rollcall_http_requests_total', 'HTTP requests by method, route and status', 'counter', requestCounts));
  registry.registerMetric(scraped('rollcall_http_request_duration_seconds', 'HTTP request duration by method and route', 'histogram', requestDurations));

  return { registry, routeSeries, record, recordRequest };
}

export type Metrics = ReturnType<typeof createMetrics>;
