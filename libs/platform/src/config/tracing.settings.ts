/**
 * Whether and how a service process traces, read from the standard OpenTelemetry variables before
 * anything else loads (libs/platform/src/tracing.ts), so it cannot wait for the validated config.
 * PlatformConfig documents and validates OTEL_EXPORTER_OTLP_ENDPOINT too; the exporter, the
 * sampler and the resource read their own OTEL_* variables.
 */
export interface TracingSettings {
  /** True when an OTLP endpoint is set and the SDK is not disabled. */
  enabled: boolean;
  /** service.name: OTEL_SERVICE_NAME, else the service's SERVICE_NAME. */
  serviceName: string;
}

const set = (value: string | undefined): boolean => value !== undefined && value.trim() !== '';

export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings {
  const endpoint = set(env.OTEL_EXPORTER_OTLP_ENDPOINT) || set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const disabled =
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim() === 'none';
  return {
    enabled: endpoint && !disabled,
    serviceName: (set(env.OTEL_SERVICE_NAME) ? env.OTEL_SERVICE_NAME : env.SERVICE_NAME) || 'kyc-service',
  };
}
