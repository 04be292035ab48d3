import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, Observable, throwError } from 'rxjs';

import { UserinfoErrorCode, UserinfoException } from './userinfo.exception';

const quoted = (value: string) => `"${value.replace(/["\\]/g, "'")}"`;

/**
 * RFC 6750 §3: a userinfo answer refusing the bearer token carries `WWW-Authenticate: Bearer` with the error
 * (none when the request carried no token at all). The body stays the service envelope of spec 3.
 */
@Injectable()
export class BearerChallengeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((err: unknown) => {
        if (err instanceof UserinfoException && err.status >= 400 && err.status < 404) {
          const http = context.switchToHttp();
          const req = http.getRequest<FastifyRequest>();
          const body = req.body as { access_token?: unknown } | undefined;
          const sentToken = req.headers.authorization !== undefined || body?.access_token !== undefined;
          const challenge =
            err.errorCode === (UserinfoErrorCode.InvalidToken as string) && !sentToken
              ? 'Bearer realm="pass"'
              : `Bearer realm="pass", error=${quoted(err.errorCode)}, error_description=${quoted(err.message)}`;
          void http.getResponse<FastifyReply>().header('www-authenticate', challenge);
        }
        return throwError(() => err);
      }),
    );
  }
}
