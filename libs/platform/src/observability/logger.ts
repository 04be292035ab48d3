import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

import { ambientContext } from './request-context.storage';

let root: Logger | undefined;

/** The process logger: JSON lines on stdout, each with the service name and the current request id. */
export function rootLogger(
  service = process.env.SERVICE_NAME ?? 'platform',
  level = process.env.LOG_LEVEL ?? 'info',
): Logger {
  root ??= pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const ctx = ambientContext.getStore();
      return ctx ? { request_id: ctx.requestId, ...(ctx.tenantId ? { tenant_id: ctx.tenantId } : {}) } : {};
    },
    serializers: { err: pino.stdSerializers.err },
  });
  return root;
}

/** Nest's logger interface over pino, so framework and application logs share one format. */
export class JsonLogger implements LoggerService {
  constructor(private readonly logger: Logger = rootLogger()) {}

  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]) {
    // Nest passes the context (logger name) last; error() may pass a stack before it.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const extra = rest.length ? { detail: rest } : {};
    if (message && typeof message === 'object' && !(message instanceof Error)) {
      const { msg, ...fields } = message as Record<string, unknown>;
      const text = typeof msg === 'string' ? msg : typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
      this.logger[level]({ context, ...fields }, text);
    } else if (message instanceof Error) {
      this.logger[level]({ context, err: message, ...extra }, message.message);
    } else {
      this.logger[level]({ context, ...extra }, String(message));
    }
  }
}
