import type { FastifyReply } from 'fastify';

import { PlatformErrorCode, PlatformException } from '../../errors/app.exception';
import { RateLimitAnswer } from './rate-limiter.service';

const WHOSE = { tenant: 'tenant', key: 'API key', client: 'client address' } as const;

/**
 * Sets the RateLimit-* headers of a bucket's answer (draft-ietf-httpapi-ratelimit-headers); when it
 * refused, sets Retry-After and answers the 429 to throw (in the envelope, `too_many_requests`).
 */
export function applyRateLimitAnswer(
  reply: FastifyReply,
  answer: RateLimitAnswer | undefined,
): PlatformException | undefined {
  if (!answer) return undefined;
  void reply.headers({
    'ratelimit-limit': answer.limit,
    'ratelimit-remaining': answer.remaining,
    'ratelimit-reset': answer.resetSeconds,
  });
  if (answer.allowed) return undefined;
  void reply.header('retry-after', answer.retryAfterSeconds);
  return new PlatformException(
    PlatformErrorCode.TooManyRequests,
    `Too many requests for this ${WHOSE[answer.scope]}: retry after ${answer.retryAfterSeconds} s`,
  );
}
