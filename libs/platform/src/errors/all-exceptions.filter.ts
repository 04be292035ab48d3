import { randomUUID } from 'node:crypto';

import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { throwError } from 'rxjs';

import { IdempotentReplay } from '../http/idempotency';
import { AppException } from './app.exception';
import { toErrorEnvelope } from './error-envelope';

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
    void reply.status(body.code).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}
