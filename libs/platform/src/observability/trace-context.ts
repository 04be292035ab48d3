/**
 * The platform's side of trace propagation, free of OpenTelemetry: the outbox, the relay and the
 * job queue call these functions, which do nothing (one null check) until the tracing module
 * (tracing.ts, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set) installs its hooks at process
 * start. So a service without tracing never loads an OpenTelemetry module.
 */

/** A W3C trace context as text headers (`traceparent`, optionally `tracestate`). */
export type TraceCarrier = Record<string, string>;

/** What the tracing module provides (tracing.ts installs them; unit tests may install their own). */
export interface TraceHooks {
  /** The active context as a carrier, or null when there is no sampled span to continue. */
  capture(): TraceCarrier | null;
  /**
   * Runs `fn` in a new span named `name` whose parent is the carrier's context (a root span when
   * the carrier is null), ending it when `fn` settles.
   */
  run<T>(
    carrier: TraceCarrier | null,
    name: string,
    attributes: Record<string, string>,
    fn: () => Promise<T>,
  ): Promise<T>;
  /** Runs `fn` outside any trace (background work a request's commit merely woke up). */
  detached<T>(fn: () => T): T;
  /** The active span's trace id (for log lines), or undefined. */
  traceId(): string | undefined;
  /** Exports the spans still buffered (at shutdown). */
  flush(): Promise<void>;
}

let hooks: TraceHooks | null = null;

/** Called once by the tracing module when it starts (and by tests); null uninstalls. */
export function installTraceHooks(installed: TraceHooks | null): void {
  hooks = installed;
}

/** True when tracing runs in this process (the SQL that stores trace contexts is chosen by it). */
export const tracingActive = (): boolean => hooks !== null;

/** The active trace context to store with an event or a job (null when tracing is off). */
export const captureTraceContext = (): TraceCarrier | null => (hooks ? hooks.capture() : null);

/**
 * Runs work that continues a stored trace context (a job enqueued by a request) in a span of its
 * own; without tracing, just runs it.
 */
export function runInTraceContext<T>(
  carrier: TraceCarrier | null | undefined,
  name: string,
  attributes: Record<string, string>,
  fn: () => Promise<T>,
): Promise<T> {
  return hooks ? hooks.run(carrier ?? null, name, attributes, fn) : fn();
}

/** Runs background work outside the trace that happened to wake it (a no-op wrapper without tracing). */
export const runDetached = <T>(fn: () => T): T => (hooks ? hooks.detached(fn) : fn());

/** The active trace id, for access logs to point at their trace (undefined without tracing). */
export const currentTraceId = (): string | undefined => (hooks ? hooks.traceId() : undefined);

/** Exports buffered spans (no-op without tracing). */
export const flushTraces = (): Promise<void> => (hooks ? hooks.flush() : Promise.resolve());
