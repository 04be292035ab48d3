import http from 'node:http';

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

import { foregroundLoad } from './foreground-load';

/** One Prometheus registry per process, served at /metrics. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const outboxPublished = new Counter({
  name: 'outbox_events_published_total',
  help: 'Events relayed from the outbox to Kafka',
  labelNames: ['topic'] as const,
  registers: [metricsRegistry],
});

export const outboxPending = new Gauge({
  name: 'outbox_events_pending',
  help: 'Outbox events not yet relayed (sampled by the relay)',
  registers: [metricsRegistry],
});

export const eventsConsumed = new Counter({
  name: 'events_consumed_total',
  help: 'Events handled by consumers, by outcome (processed, duplicate, parked)',
  labelNames: ['consumer', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** HTTP requests being served now (background jobs yield above JOBS_YIELD_AT, see ForegroundLoad). */
export const httpRequestsInFlight = new Gauge({
  name: 'http_requests_in_flight',
  help: 'HTTP requests being served right now',
  registers: [metricsRegistry],
  collect() {
    this.set(foregroundLoad.current);
  },
});

/**
 * /metrics on a listener of its own (METRICS_PORT): what Prometheus scrapes inside the cluster,
 * apart from the service port that the Service and Ingress expose. Anything else answers 404.
 */
export async function startMetricsServer(port: number, host: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ code: 404, status: 'Not Found', message: 'Only GET /metrics is served here' }));
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
