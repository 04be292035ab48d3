import { SetMetadata } from '@nestjs/common';

export const NO_RATE_LIMIT = 'platform:no-rate-limit';
export const CLIENT_RATE_LIMIT = 'platform:client-rate-limit';

/**
 * Not limited per client address although @Public(): probes (health), signed provider webhooks, and
 * routes that authenticate their caller otherwise (OAuth client credentials, bearer tokens).
 */
export const NoRateLimit = () => SetMetadata(NO_RATE_LIMIT, true);

/**
 * Limited per client address (RATE_LIMIT_CLIENT_PER_SECOND) as @Public() routes are, on top of the
 * key's buckets: an end-user route that carries a person's temporary key (identity's page uploads).
 */
export const RateLimitByClientAddress = () => SetMetadata(CLIENT_RATE_LIMIT, true);
