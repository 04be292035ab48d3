import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import { AuthenticatedRequest, CALLER } from '../../auth/caller';
import { PlatformErrorCode, PlatformException } from '../../errors/app.exception';
import { RateLimiterService } from './rate-limiter.service';

/**
 * Global guard after AuthGuard: a request of an API key takes a token from its tenant's bucket
 * and from its key's (RateLimiterService). Every answer carries RateLimit-Limit, -Remaining and
 * -Reset (draft-ietf-httpapi-ratelimit-headers); a refused one gets 429 in the envelope with
 * Retry-After. Public routes and operator tokens are not limited.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiterService) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const caller = http.getRequest<AuthenticatedRequest>()[CALLER];
    if (!caller) return true;
    const answer = this.limiter.take(caller.tenantId, caller.keyId);
    if (!answer) return true;
    const reply = http.getResponse<FastifyReply>();
    void reply.headers({
      'ratelimit-limit': answer.limit,
      'ratelimit-remaining': answer.remaining,
      'ratelimit-reset': answer.resetSeconds,
    });
    if (answer.allowed) return true;
    void reply.header('retry-after', answer.retryAfterSeconds);
    throw new PlatformException(
      PlatformErrorCode.TooManyRequests,
      `Too many requests for this ${answer.scope === 'tenant' ? 'tenant' : 'API key'}: retry after ${answer.retryAfterSeconds} s`,
    );
  }
}
