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
  help: 'Outbox events not yet relayed (sampled every METRICS_SAMPLE_MS, whether or not Kafka takes them)',
  registers: [metricsRegistry],
});

export const outboxOldestPendingAge = new Gauge({
  name: 'outbox_oldest_pending_age_seconds',
  help: 'Age of the oldest outbox event not yet relayed (0: none waits)',
  registers: [metricsRegistry],
});

export const outboxRelayLastSuccess = new Gauge({
  name: 'outbox_relay_last_success_timestamp_seconds',
  help: "Unix time of the relay's last pass that completed (events sent, or none waiting)",
  registers: [metricsRegistry],
});

export const kafkaConsumerLag = new Gauge({
  name: 'kafka_consumer_lag',
  help: "Messages of a topic the service's consumer group has not committed yet (sum over partitions)",
  labelNames: ['group', 'topic'] as const,
  registers: [metricsRegistry],
});

export const jobsPending = new Gauge({
  name: 'jobs_pending',
  help: 'Jobs waiting in a queue (pending: due or scheduled)',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

export const jobsOldestDueAge = new Gauge({
  name: 'jobs_oldest_due_age_seconds',
  help: 'How long the oldest due job of a queue has waited past its run time (0: none overdue)',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

export const eventsParked = new Gauge({
  name: 'events_parked',
  help: 'Events parked (dead-lettered) after failed handling, waiting for an operator, by consumer',
  labelNames: ['consumer'] as const,
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
