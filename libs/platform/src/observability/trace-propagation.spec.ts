import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { ProducerBatch } from 'kafkajs';
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';

import { tracingSettings } from '../config/tracing.settings';
import { OutboxService } from '../events/outbox.service';
import { OutboxRelay } from '../events/outbox-relay';
import { insertJob, insertJobs, jobRow } from '../jobs/job-rows';
import { captureTraceContext, installTraceHooks, runDetached, runInTraceContext, tracingActive } from './trace-context';
import { traceHooks } from './tracing';

const event = { topic: 'checks.check.finished', type: 'checks.check.finished', tenantId: 't1', aggregateId: 'c1' };

/** A manager that records the statements it is given. */
const recordingManager = () => {
  const calls: { sql: string; params: unknown[] }[] = [];
  const manager = { query: async (sql: string, params: unknown[]) => void calls.push({ sql, params }) };
  return { calls, manager: manager as unknown as EntityManager };
};

describe('tracing settings', () => {
  it('is on only with an OTLP endpoint, and names the service', () => {
    expect(tracingSettings({ SERVICE_NAME: 'checks' })).toEqual({ enabled: false, serviceName: 'checks' });
    expect(tracingSettings({ SERVICE_NAME: 'checks', OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }).enabled).toBe(false);
    expect(tracingSettings({ SERVICE_NAME: 'checks', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({
      enabled: true,
      serviceName: 'checks',
    });
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).enabled).toBe(true);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).enabled).toBe(
      false,
    );
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).enabled,
    ).toBe(false);
    expect(tracingSettings({ SERVICE_NAME: 'checks', OTEL_SERVICE_NAME: 'checks-eu' }).serviceName).toBe('checks-eu');
  });
});

describe('without tracing', () => {
  it('stores no trace context and writes the statements it always did', async () => {
    expect(tracingActive()).toBe(false);
    const outbox = new OutboxService();
    expect(outbox.row({ ...event, payload: {} })).not.toHaveProperty('headers');
    expect(outbox.insertSql('$1')).not.toContain('headers');
    const { calls, manager } = recordingManager();
    await outbox.add(manager, { ...event, payload: {} });
    expect(calls[0].sql).not.toContain('headers');
    expect(calls[0].params).toHaveLength(6);
    expect(jobRow('q', {}, {}, new Date())).not.toHaveProperty('trace_context');
    expect(insertJob('q', {}, {}, new Date())[0]).not.toContain('trace_context');
    expect(insertJobs('q', [{ payload: {} }], new Date())[0]).not.toContain('trace_context');
    expect(await runInTraceContext({ traceparent: 'x' }, 'job', {}, async () => 'ran')).toBe('ran');
  });
});

describe('with tracing', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');

  beforeAll(() => {
    provider.register();
    installTraceHooks(traceHooks(provider));
  });

  afterAll(async () => {
    installTraceHooks(null);
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  beforeEach(() => exporter.reset());

  /** Runs `fn` inside a new active span; returns its result and the span's ids. */
  const inSpan = <T>(fn: () => T) =>
    tracer.startActiveSpan('request', (span) => {
      try {
        return { result: fn(), ...span.spanContext() };
      } finally {
        span.end();
      }
    });

  it('outbox rows carry the active trace context as headers, in every insert path', async () => {
    const outbox = new OutboxService();
    const { result: row, traceId, spanId } = inSpan(() => outbox.row({ ...event, payload: {} }));
    expect(row.headers?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    // Outside any span there is nothing to continue.
    expect(outbox.row({ ...event, payload: {} }).headers).toBeUndefined();
    // A context captured earlier (a grouped statement) wins over the active one.
    const given = { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` };
    expect(inSpan(() => outbox.row({ ...event, payload: {}, traceContext: given })).result.headers).toEqual(given);

    const { calls, manager } = recordingManager();
    const added = inSpan(() => outbox.add(manager, { ...event, payload: {} }));
    await added.result;
    expect(calls[0].sql).toContain('envelope, headers)');
    expect(JSON.parse(calls[0].params[6] as string)).toEqual({ traceparent: `00-${added.traceId}-${added.spanId}-01` });
    expect(outbox.insertSql('$3')).toContain(`COALESCE(e.headers, '{}')`);
  });

  it('jobs store the trace context they continue, and run in a span whose parent is the enqueuer', async () => {
    const { result, traceId, spanId } = inSpan(() => ({
      row: jobRow('checks.start', {}, {}, new Date()),
      one: insertJob('checks.start', {}, {}, new Date()),
      many: insertJobs('checks.start', [{ payload: {} }, { payload: {}, options: { traceContext: null } }], new Date()),
    }));
    const carrier = result.row.trace_context!;
    expect(carrier.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    expect(result.one[0]).toContain('trace_context');
    // $7 is the correlation id (the request queuing the job), $8 the trace context.
    expect(JSON.parse(result.one[1][7] as string)).toEqual(carrier);
    expect((result.many[1][7] as string[]).map((t) => JSON.parse(t))).toEqual([carrier, null]);

    const seen = await runInTraceContext(carrier, 'job checks.start', { 'job.queue': 'checks.start' }, async () =>
      captureTraceContext(),
    );
    const [job] = exporter.getFinishedSpans().filter((s) => s.name === 'job checks.start');
    expect(job.spanContext().traceId).toBe(traceId);
    expect(job.parentSpanContext?.spanId).toBe(spanId);
    expect(job.attributes['job.queue']).toBe('checks.start');
    // Work done inside the job (an event it writes) continues the job's span.
    expect(seen?.traceparent).toBe(`00-${traceId}-${job.spanContext().spanId}-01`);
  });

  it('background work woken by a request runs outside its trace', () => {
    const { result } = inSpan(() => ({
      inside: captureTraceContext(),
      detached: runDetached(() => captureTraceContext()),
    }));
    expect(result.inside).not.toBeNull();
    expect(result.detached).toBeNull();
  });

  it('a failing job ends its span with the error', async () => {
    await expect(
      runInTraceContext(null, 'job boom', {}, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('job boom');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.status.code).toBe(2);
    expect(span.events[0].name).toBe('exception');
  });
});

describe('the outbox relay', () => {
  /** A pool whose pending rows are `rows`; records what the producer is sent. */
  const relayOf = (rows: unknown[]) => {
    const batches: ProducerBatch[] = [];
    const client = {
      query: async (sql: string) => (sql.startsWith('BEGIN') ? [{}, {}, { rows }] : { rows: [], rowCount: 0 }),
      release: () => undefined,
    };
    const pool = {
      query: async (sql: string) =>
        sql.includes('LIMIT 1') ? { rowCount: 1, rows: [{}] } : { rows: [{ pending: 0 }], rowCount: 0 },
      connect: async () => client,
    } as unknown as Pool;
    const reports = {
      published: () => undefined,
      pending: () => undefined,
      warn: () => undefined,
      info: () => undefined,
    };
    const relay = new OutboxRelay(pool, { sendBatch: async (b) => void batches.push(b) }, reports);
    return { relay, batches };
  };

  it('sends the stored trace context as Kafka headers, and no headers for rows without one', async () => {
    const traceparent = `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01`;
    const { relay, batches } = relayOf([
      { seq: '1', topic: 'checks.check.finished', message_key: 'c1', envelope: '{}', headers: { traceparent } },
      { seq: '2', topic: 'checks.check.finished', message_key: 'c2', envelope: '{}', headers: null },
    ]);
    relay.kick();
    await relay.stop();
    const messages = batches[0].topicMessages![0].messages;
    expect(messages[0]).toEqual({ key: 'c1', value: '{}', headers: { traceparent } });
    expect(messages[1]).toEqual({ key: 'c2', value: '{}' });
  });
});
