import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import { AuthenticatedRequest, CALLER } from '../../auth/caller';
import { applyRateLimitAnswer } from './rate-limit.answer';
import { RateLimiterService } from './rate-limiter.service';

/**
 * Global guard after AuthGuard: a request of an API key takes a token from its tenant's bucket
 * and from its key's (RateLimiterService). Every answer carries RateLimit-Limit, -Remaining and
 * -Reset (draft-ietf-httpapi-ratelimit-headers); a refused one gets 429 in the envelope with
 * Retry-After. Operator tokens are not limited. The routes without a key are limited per client
 * address before their body is read (registerClientRateLimit, an onRequest hook).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiterService) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const caller = http.getRequest<AuthenticatedRequest>()[CALLER];
    if (!caller) return true;
    const refusal = applyRateLimitAnswer(
      http.getResponse<FastifyReply>(),
      this.limiter.take(caller.tenantId, caller.keyId),
    );
    if (refusal) throw refusal;
    return true;
  }
}
