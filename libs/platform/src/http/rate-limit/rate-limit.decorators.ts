import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

import { routeConfigDecorator } from '../request-limits';

export const NO_RATE_LIMIT = 'platform:no-rate-limit';
/** The OpenAPI extension of a @NoRateLimit() operation: the document gives it no 429. */
export const NO_RATE_LIMIT_EXTENSION = 'x-no-rate-limit';

/**
 * Not limited per client address although @Public(): probes (health), signed provider webhooks, and
 * routes that authenticate their caller otherwise (OAuth client credentials, bearer tokens).
 */
export const NoRateLimit = () =>
  applyDecorators(
    SetMetadata(NO_RATE_LIMIT, true),
    routeConfigDecorator({ kycNoRateLimit: true }),
    ApiExtension(NO_RATE_LIMIT_EXTENSION, true),
  );

/**
 * Limited per client address (RATE_LIMIT_CLIENT_PER_SECOND) as @Public() routes are, on top of the
 * key's buckets: an end-user route that carries a person's temporary key (identity's page uploads).
 */
export const RateLimitByClientAddress = () => routeConfigDecorator({ kycClientRateLimit: true });
