import { readFileSync } from 'node:fs';
import path from 'node:path';

import { db, eventually, repoRoot, RunningService, startService } from '@kyc/testing';
import { parseAllDocuments } from 'yaml';

/**
 * What an operator alerts on, from a running service's /metrics: the gauges are sampled on their
 * own timer (an outage of the relay does not freeze them), and every metric the shipped
 * PrometheusRule and Grafana dashboard name exists.
 */
const PRODUCTION = path.join(repoRoot, 'deploy/overlays/production');

/** PromQL words that are not metric names (functions, aggregations, modifiers, label names in by()). */
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'time',
  'by',
  'without',
  'and',
  'or',
  'unless',
  'on',
  'ignoring',
  'bool',
  'offset',
]);

/** The metric names a PromQL expression reads. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/(?<![\w.])[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
}

/** Every expression of the alert rules and the dashboard. */
function shippedExpressions(): { where: string; expr: string }[] {
  const rules = parseAllDocuments(readFileSync(path.join(PRODUCTION, 'prometheus-rules.yaml'), 'utf8'))[0].toJS();
  const dashboard = JSON.parse(readFileSync(path.join(PRODUCTION, 'grafana-dashboard.json'), 'utf8'));
  return [
    ...rules.spec.groups.flatMap((g: any) => g.rules.map((r: any) => ({ where: `rule ${r.alert}`, expr: r.expr }))),
    ...dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => ({ where: `panel ${p.title}`, expr: t.expr }))),
  ];
}

/** The metric families a /metrics text declares (# TYPE lines), with their types. */
const families = (text: string) => new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));

/** The family a series name belongs to (a histogram's _bucket, _count and _sum are its own). */
function familyOf(name: string, declared: Map<string, string>): string | undefined {
  if (declared.has(name)) return name;
  const base = name.replace(/_(bucket|count|sum)$/, '');
  return ['histogram', 'summary'].includes(declared.get(base) ?? '') ? base : undefined;
}

/** The value of one series (`name{labels}` as printed), or undefined. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('operator metrics (a running account service)', () => {
  let account: RunningService;
  const scrape = async () => {
    const res = await fetch(`${account.url}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    account = await startService('account', { METRICS_SAMPLE_MS: '200' });
  }, 120_000);

  afterAll(async () => {
    await account?.close();
  });

  it('the extraction finds metric names (the check can fail)', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (service_name, le) (rate(http_request_duration_seconds_bucket{status=~"5.."}[5m]))) > 2',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('time() - max by (service_name) (outbox_relay_last_success_timestamp_seconds) > 300')).toEqual([
      'outbox_relay_last_success_timestamp_seconds',
    ]);
    expect(familyOf('no_such_metric', families('# TYPE a gauge'))).toBeUndefined();
  });

  it('every metric the PrometheusRule and the Grafana dashboard name exists on /metrics', async () => {
    const declared = families(await scrape());
    const named = shippedExpressions().flatMap(({ where, expr }) => metricNames(expr).map((name) => ({ where, name })));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ name }) => familyOf(name, declared) === undefined)).toEqual([]);
    for (const name of [
      'outbox_events_pending',
      'outbox_relay_last_success_timestamp_seconds',
      'kafka_consumer_lag',
      'jobs_pending',
      'jobs_oldest_due_age_seconds',
      'events_parked',
    ])
      expect([name, named.some((n) => n.name === name)]).toEqual([name, true]);
  });

  it('samples the outbox backlog while the relay cannot publish, and the relay reports its last success', async () => {
    const before = await scrape();
    expect(valueOf(before, 'outbox_relay_last_success_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 60);
    // An event the broker refuses (its topic does not exist): the relay fails on it as during an outage.
    const { rows } = await db().query<{ seq: string }>(
      `INSERT INTO account.outbox (id, topic, message_key, type, envelope)
       VALUES (gen_random_uuid(), 'operator-metrics-spec-no-such-topic', 'k', 'spec.event', '{}') RETURNING seq`,
    );
    try {
      await eventually(async () => expect(valueOf(await scrape(), 'outbox_events_pending')).toBeGreaterThanOrEqual(1), {
        timeoutMs: 15_000,
      });
      expect(valueOf(await scrape(), 'outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    } finally {
      await db().query(`DELETE FROM account.outbox WHERE seq = $1`, [rows[0].seq]);
    }
    await eventually(async () => expect(valueOf(await scrape(), 'outbox_events_pending')).toBe(0), {
      timeoutMs: 15_000,
    });
  });

  it('samples job queues (pending, oldest due age) and parked events', async () => {
    await db().query(
      `INSERT INTO account.jobs (queue, payload, max_attempts, run_at) VALUES ('operator-metrics-spec', '{}', 1, now() - interval '90 seconds')`,
    );
    await db().query(
      `INSERT INTO account.parked_messages (consumer, topic, event_id, message, error, attempts)
       VALUES ('operator-metrics-spec', 'spec.topic', 'e1', '{}', 'boom', 5)`,
    );
    try {
      await eventually(
        async () => {
          const text = await scrape();
          expect(valueOf(text, 'jobs_pending{queue="operator-metrics-spec"}')).toBe(1);
          expect(valueOf(text, 'jobs_oldest_due_age_seconds{queue="operator-metrics-spec"}')).toBeGreaterThanOrEqual(
            90,
          );
          expect(valueOf(text, 'events_parked{consumer="operator-metrics-spec"}')).toBe(1);
        },
        { timeoutMs: 15_000 },
      );
    } finally {
      await db().query(`DELETE FROM account.jobs WHERE queue = 'operator-metrics-spec'`);
      await db().query(`DELETE FROM account.parked_messages WHERE consumer = 'operator-metrics-spec'`);
    }
    await eventually(
      async () => {
        const text = await scrape();
        expect(valueOf(text, 'jobs_pending{queue="operator-metrics-spec"}')).toBe(0);
        expect(valueOf(text, 'events_parked{consumer="operator-metrics-spec"}')).toBe(0);
      },
      { timeoutMs: 15_000 },
    );
  });
});
