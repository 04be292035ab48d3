/**
 * The tracing entry point, imported for its effect as the FIRST import of every service's main.ts
 * (`import '@kyc/platform/tracing'`): when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, it starts the OpenTelemetry SDK before fastify, pg,
 * kafkajs and http are required, so their instrumentations can patch them. Without the variable it
 * requires nothing: no OpenTelemetry module is loaded and the platform's trace hooks stay no-ops.
 * An import in main.ts (rather than a `--require` preload) works the same from the Docker image,
 * the stack command, Kubernetes and the test harness, with no flag to forget (docs/operations.md).
 */
import { tracingSettings } from './config/tracing.settings';

const settings = tracingSettings(process.env);
if (settings.enabled) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on, synchronously (before the instrumented modules)
  (require('./observability/tracing') as typeof import('./observability/tracing')).startTracing(settings);
}
