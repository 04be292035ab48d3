import { STATUS_CODES } from 'node:http';

import { HttpException } from '@nestjs/common';

import { AppException, FieldError, PlatformErrorCode } from './app.exception';

/** The one error body of every service (spec: "service envelope"). */
export interface ErrorEnvelope {
  code: number;
  status: string;
  message: string;
  error_code?: string;
  fields?: FieldError[];
}

const HTTP_ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  401: PlatformErrorCode.InvalidApiKey,
  403: PlatformErrorCode.Forbidden,
  404: PlatformErrorCode.NotFound,
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
};

export function envelope(status: number, message: string, errorCode?: string, fields?: FieldError[]): ErrorEnvelope {
  const body: ErrorEnvelope = { code: status, status: STATUS_CODES[status] ?? 'Error', message };
  if (errorCode) body.error_code = errorCode;
  if (fields && fields.length) body.fields = fields;
  return body;
}

/**
 * Maps any thrown value to (status, envelope). Unknown errors become a 500 whose message carries
 * only an error id; the details go to the log, never to the client.
 */
export function toErrorEnvelope(error: unknown, errorId: string): ErrorEnvelope {
  if (error instanceof AppException) return envelope(error.status, error.message, error.errorCode, error.fields);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status >= 500) return envelope(status, `Internal error (id ${errorId})`, PlatformErrorCode.Internal);
    const response = error.getResponse();
    const detail = typeof response === 'string' ? response : (response as { message?: unknown } | null)?.message;
    const message = Array.isArray(detail) ? detail.join('; ') : typeof detail === 'string' ? detail : error.message;
    return envelope(status, cleanMessage(String(message)), HTTP_ERROR_CODES[status]);
  }
  const refused = databaseRefusedValue(error);
  if (refused) return envelope(400, refused, 'invalid_value');
  const status = fastifyClientErrorStatus(error);
  if (status)
    return envelope(status, cleanMessage((error as Error).message), HTTP_ERROR_CODES[status] ?? 'bad_request');
  return envelope(500, `Internal error (id ${errorId})`, PlatformErrorCode.Internal);
}

/**
 * PostgreSQL refusing a value that came from the request (SQLSTATE class 22, data exception: text
 * that is not a valid uuid, number or date, a NUL byte, a number out of range; 23502, a required
 * value left null) is the client's error, not the server's: 400, without the SQL. The edges
 * (validation, request-limits.ts) refuse these first; this keeps a field they missed a 4xx.
 */
function databaseRefusedValue(error: unknown): string | undefined {
  const e = error as { name?: string; code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? (e?.name === 'QueryFailedError' ? e.code : undefined);
  if (typeof code !== 'string') return undefined;
  if (code.startsWith('22')) return 'A value of the request is not valid for its field';
  if (code === '23502') return 'A required value of the request is missing';
  return undefined;
}

/** Body-parser and content-type errors raised by Fastify before Nest sees the request. */
function fastifyClientErrorStatus(error: unknown): number | undefined {
  const e = error as { statusCode?: number; code?: string };
  if (typeof e?.statusCode !== 'number' || e.statusCode < 400 || e.statusCode >= 500 || typeof e.code !== 'string')
    return undefined;
  // Fastify's own client errors, and a body the client stopped sending (it closed the connection).
  if (e.code.startsWith('FST_') || e.code === 'ECONNRESET') return e.statusCode;
  return undefined;
}

function cleanMessage(message: string): string {
  return message.replace(/^FST_[A-Z_]+:\s*/, '');
}
