import { randomUUID } from 'node:crypto';

import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { throwError } from 'rxjs';

import { IdempotentReplay } from '../http/idempotency';
import type { PlatformRouteConfig } from '../http/request-limits';
import { AppException } from './app.exception';
import { ErrorEnvelope, toErrorEnvelope } from './error-envelope';

/** Every HTTP error leaves through here, in the one envelope, without stack traces or SQL. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('errors');

  catch(exception: unknown, host: ArgumentsHost) {
    // Event handlers (Kafka) keep their own retry/park policy: hand the error back to the transport.
    if (host.getType() !== 'http') return throwError(() => exception);
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (exception instanceof IdempotentReplay) {
      void reply.status(exception.status).header('idempotent-replayed', 'true').send(exception.body);
      return;
    }
    const errorId = randomUUID();
    const body = toErrorEnvelope(exception, errorId);
    if (body.code >= 500) this.logger.error({ err: exception, error_id: errorId }, 'unhandled error');
    if (exception instanceof AppException && exception.retryAfterSeconds)
      void reply.header('retry-after', exception.retryAfterSeconds);
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const oauth = (req?.routeOptions?.config as PlatformRouteConfig | undefined)?.kycOAuthErrors;
    void reply
      .status(body.code)
      .header('content-type', 'application/json; charset=utf-8')
      .send(oauth ? toOAuthError(body) : body);
  }
}

/** The RFC 6749 error of an envelope (OAuth endpoints, @OAuthErrorShape). */
export function toOAuthError(body: ErrorEnvelope): { error: string; error_description: string } {
  const error =
    body.code === 401
      ? 'invalid_client'
      : body.code === 503
        ? 'temporarily_unavailable'
        : body.code >= 500
          ? 'server_error'
          : 'invalid_request';
  const fields = (body.fields ?? []).map((f) => `${f.field}: ${f.message}`).join('; ');
  return { error, error_description: fields ? `${body.message} (${fields})` : body.message };
}
