import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { PUBLIC_ROUTE } from '../../auth/auth.decorators';
import { AuthenticatedRequest, CALLER } from '../../auth/caller';
import { PlatformErrorCode, PlatformException } from '../../errors/app.exception';
import { clientBucketOf } from './client-address';
import { CLIENT_RATE_LIMIT, NO_RATE_LIMIT } from './rate-limit.decorators';
import { RateLimitAnswer, RateLimiterService } from './rate-limiter.service';

const WHOSE = { tenant: 'tenant', key: 'API key', client: 'client address' } as const;

/**
 * Global guard after AuthGuard: a request of an API key takes a token from its tenant's bucket
 * and from its key's (RateLimiterService); a request to a @Public() route (or one marked
 * @RateLimitByClientAddress()) takes one from its client address's bucket (request.ip). Every
 * limited answer carries RateLimit-Limit, -Remaining and -Reset
 * (draft-ietf-httpapi-ratelimit-headers); a refused one gets 429 in the envelope with Retry-After.
 * Routes marked @NoRateLimit() (health, signed webhooks, OAuth client routes) and operator tokens
 * are not limited.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiterService,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(NO_RATE_LIMIT, targets)) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest & FastifyRequest>();
    const caller = request[CALLER];
    const byClient =
      this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) ||
      this.reflector.getAllAndOverride<boolean>(CLIENT_RATE_LIMIT, targets);
    const reply = http.getResponse<FastifyReply>();
    if (byClient && request.ip) this.answer(reply, this.limiter.takeClient(clientBucketOf(request.ip)));
    if (caller) this.answer(reply, this.limiter.take(caller.tenantId, caller.keyId));
    return true;
  }

  /** Sets the RateLimit-* headers; refuses with 429 and Retry-After when the bucket is empty. */
  private answer(reply: FastifyReply, answer: RateLimitAnswer | undefined): void {
    if (!answer) return;
    void reply.headers({
      'ratelimit-limit': answer.limit,
      'ratelimit-remaining': answer.remaining,
      'ratelimit-reset': answer.resetSeconds,
    });
    if (answer.allowed) return;
    void reply.header('retry-after', answer.retryAfterSeconds);
    throw new PlatformException(
      PlatformErrorCode.TooManyRequests,
      `Too many requests for this ${WHOSE[answer.scope]}: retry after ${answer.retryAfterSeconds} s`,
    );
  }
}
