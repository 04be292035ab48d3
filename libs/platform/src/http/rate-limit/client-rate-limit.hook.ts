import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { PlatformRouteConfig } from '../request-limits';
import { clientBucketOf } from './client-address';
import { applyRateLimitAnswer } from './rate-limit.answer';
import type { RateLimiterService } from './rate-limiter.service';
import { tooManyRequestsPage, wantsPage } from './too-many-requests.page';

/**
 * The routes without an API key (@Public(): pass's pages, identity's page, upload and media links),
 * and those marked @RateLimitByClientAddress(), take a token from their client address's bucket
 * (request.ip; RATE_LIMIT_CLIENT_PER_SECOND) when the request arrives, before a byte of its body is
 * read: 429 with Retry-After, in the envelope (a browser asking for a page gets a page in its
 * language instead: a person never sees JSON). @NoRateLimit() routes (probes, signed webhooks, OAuth
 * client routes) are not limited.
 */
export function registerClientRateLimit(
  fastify: FastifyInstance,
  limiter: Pick<RateLimiterService, 'takeClient'>,
): void {
  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const config = (req.routeOptions?.config ?? {}) as PlatformRouteConfig;
    if (!req.routeOptions?.url || config.kycNoRateLimit || !(config.kycPublic || config.kycClientRateLimit))
      return done();
    const refusal = applyRateLimitAnswer(reply, limiter.takeClient(clientBucketOf(req.ip)));
    if (!refusal) return done();
    // The body, if any, is not read: the connection cannot be reused.
    if (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0)
      void reply.header('connection', 'close');
    if (wantsPage(req.headers.accept)) {
      void reply
        .code(429)
        .headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
        .type('text/html; charset=utf-8')
        .send(tooManyRequestsPage(req.headers['accept-language'], Number(reply.getHeader('retry-after') ?? 1)));
      return;
    }
    done(refusal);
  });
}
