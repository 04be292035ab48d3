import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

import type { TracingSettings } from '../config/tracing.settings';
import { installTraceHooks, TraceCarrier, TraceHooks } from './trace-context';

/** Probes and scrapes: answered many times a minute, never traced (as they are never access-logged). */
const UNTRACED_PATHS = new Set(['/livez', '/readyz', '/health', '/metrics']);

export interface StartTracingOptions {
  /** Where spans go (default: OTLP over HTTP, configured by the standard OTEL_EXPORTER_OTLP_* variables). */
  processor?: SpanProcessor;
  exporter?: SpanExporter;
  /** Register the http, fastify, pg and kafkajs instrumentations (default true; unit tests pass false). */
  instrumentations?: boolean;
}

/**
 * The instrumentations: server and client HTTP, Fastify's routes and hooks (@fastify/otel, the
 * Fastify team's plugin that replaced the deprecated @opentelemetry/instrumentation-fastify,
 * registered on every Fastify instance as it is created), PostgreSQL queries, Kafka.
 */
export function platformInstrumentations(): Instrumentation[] {
  const untraced = (url: string | undefined) => UNTRACED_PATHS.has((url ?? '').split('?')[0]);
  return [
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => untraced(req.url) }),
    new FastifyOtelInstrumentation({ registerOnInitialization: true, ignorePaths: (opts) => untraced(opts.url) }),
    // Only queries of a traced request, event or job: the pollers' idle reads start no trace. No bound values.
    new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    new KafkaJsInstrumentation(),
  ];
}

/**
 * Starts the OpenTelemetry SDK of this process: a tracer provider named after the service (the
 * sampler from OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG, parent-based always-on by default),
 * the W3C trace-context propagator, batched OTLP/HTTP export, the instrumentations, and the hooks
 * through which the outbox and the job queue store and continue trace contexts (trace-context.ts).
 * Must run before fastify, pg, kafkajs and http are first required (libs/platform/src/tracing.ts).
 */
export function startTracing(settings: TracingSettings, options: StartTracingOptions = {}): NodeTracerProvider {
  const resource = detectResources({ detectors: [envDetector] }).merge(
    resourceFromAttributes({ 'service.name': settings.serviceName }),
  );
  const processor = options.processor ?? new BatchSpanProcessor(options.exporter ?? new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  if (options.instrumentations ?? true)
    registerInstrumentations({ tracerProvider: provider, instrumentations: platformInstrumentations() });
  installTraceHooks(traceHooks(provider));
  return provider;
}

/** The hooks the platform calls (trace-context.ts), on the given provider. */
export function traceHooks(provider: NodeTracerProvider): TraceHooks {
  const tracer = provider.getTracer('@kyc/platform');
  return {
    capture() {
      const carrier: TraceCarrier = {};
      propagation.inject(context.active(), carrier);
      return carrier.traceparent ? carrier : null;
    },
    run(carrier, name, attributes, fn) {
      const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
      return tracer.startActiveSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
        try {
          return await fn();
        } catch (err: unknown) {
          span.recordException(err instanceof Error ? err : String(err));
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw err;
        } finally {
          span.end();
        }
      });
    },
    detached: (fn) => context.with(ROOT_CONTEXT, fn),
    traceId: () => trace.getActiveSpan()?.spanContext().traceId,
    flush: () => provider.forceFlush(),
  };
}
