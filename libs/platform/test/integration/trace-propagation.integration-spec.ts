import { randomUUID } from 'node:crypto';

import { closeDb, db, eventually, startService, testKafka } from '@kyc/testing';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Consumer, IHeaders } from 'kafkajs';
import { DataSource } from 'typeorm';

import { OutboxService } from '../../src/events/outbox.service';
import { JobQueueService } from '../../src/jobs/job-queue.service';
import { installTraceHooks } from '../../src/observability/trace-context';
import { traceHooks } from '../../src/observability/tracing';

type App = Awaited<ReturnType<typeof startService>>;

/**
 * Trace contexts through the platform's storage and Kafka, on real PostgreSQL and a real broker:
 * a service (engagement, in-process) with the trace hooks installed as tracing.ts installs them.
 * A job enqueued in a span runs in a child span; an event it writes leaves the relay thread with
 * the job's context in its Kafka headers.
 */
describe('trace context through jobs, the outbox and Kafka headers', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('spec');
  const topic = `trace-spec-${randomUUID().slice(0, 8)}`;
  const received: { key: string; headers: IHeaders }[] = [];
  let app: App;
  let consumer: Consumer;

  beforeAll(async () => {
    provider.register();
    installTraceHooks(traceHooks(provider));
    const admin = testKafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    consumer = testKafka().consumer({ groupId: `${topic}-reader`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) =>
        void received.push({ key: message.key!.toString(), headers: message.headers! }),
    });
    app = await startService('engagement', { JOBS_POLL_MS: '50' });
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await app?.close();
    installTraceHooks(null);
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    await closeDb();
  });

  const traceparent = (ids: { traceId: string; spanId: string }) => `00-${ids.traceId}-${ids.spanId}-01`;
  const stored = async (sql: string, key: string) => (await db().query(sql, [key])).rows[0];

  it('a job continues its enqueuer, and its event carries the job span in the Kafka headers', async () => {
    const jobs = app.app.get(JobQueueService);
    const outbox = app.app.get(OutboxService);
    const dataSource = app.app.get(DataSource);
    const key = randomUUID();
    jobs.register<{ key: string }>('trace-spec.publish', async (job) => {
      await dataSource.transaction((m) =>
        outbox.add(m, { topic, type: 'spec.traced', tenantId: null, aggregateId: job.payload.key, payload: {} }),
      );
    });
    const request = await tracer.startActiveSpan('request', async (span) => {
      await jobs.enqueue(null, 'trace-spec.publish', { key });
      span.end();
      return span.spanContext();
    });
    const jobRow = await stored(`SELECT trace_context FROM engagement.jobs WHERE payload->>'key' = $1`, key);
    expect(jobRow.trace_context).toEqual({ traceparent: traceparent(request) });

    const message = await eventually(
      () => {
        const found = received.find((m) => m.key === key);
        if (!found) throw new Error('not received yet');
        return found;
      },
      { timeoutMs: 20_000 },
    );
    const [job] = exporter.getFinishedSpans().filter((s) => s.name === 'job trace-spec.publish');
    expect(job.spanContext().traceId).toBe(request.traceId);
    expect(job.parentSpanContext?.spanId).toBe(request.spanId);
    expect(message.headers.traceparent?.toString()).toBe(traceparent(job.spanContext()));
    const event = await stored(`SELECT headers FROM engagement.outbox WHERE message_key = $1`, key);
    expect(event.headers).toEqual({ traceparent: traceparent(job.spanContext()) });
  });

  it('enqueueMany and the single-statement inserts store each row its context', async () => {
    const jobs = app.app.get(JobQueueService);
    const outbox = app.app.get(OutboxService);
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const given = { traceparent: `00-${'e'.repeat(32)}-${'f'.repeat(16)}-01` };
    const span = await tracer.startActiveSpan('batch', async (s) => {
      await jobs.enqueueMany(null, 'trace-spec.unregistered', [
        { payload: { key: a } },
        { payload: { key: b }, options: { traceContext: given } },
      ]);
      // The state change and its events and jobs in one statement, as checks stores a group of checks.
      const client = await db().connect();
      try {
        await client.query('BEGIN; SET LOCAL search_path TO engagement');
        await client.query(`WITH e AS (${outbox.insertSql('$1')}) ${jobs.insertSql('$2')}`, [
          JSON.stringify([outbox.row({ topic, type: 'spec.traced', tenantId: null, aggregateId: c, payload: {} })]),
          JSON.stringify([jobs.row('trace-spec.unregistered', { key: c })]),
        ]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      s.end();
      return s.spanContext();
    });
    const contexts = async (k: string) =>
      (await stored(`SELECT trace_context FROM engagement.jobs WHERE payload->>'key' = $1`, k)).trace_context;
    expect(await contexts(a)).toEqual({ traceparent: traceparent(span) });
    expect(await contexts(b)).toEqual(given);
    expect(await contexts(c)).toEqual({ traceparent: traceparent(span) });
    expect((await stored(`SELECT headers FROM engagement.outbox WHERE message_key = $1`, c)).headers).toEqual({
      traceparent: traceparent(span),
    });
  });
});
