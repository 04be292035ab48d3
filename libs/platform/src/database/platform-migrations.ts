import type { MigrationInterface } from 'typeorm';

import { PlatformJobs1763769700000 } from './platform-jobs.migration';
import { PlatformJobsClaim1763770800000 } from './platform-jobs-claim.migration';
import { PlatformJobsCorrelation1795700000000 } from './platform-jobs-correlation.migration';
import { PlatformJobsTrace1795610642000 } from './platform-jobs-trace.migration';
import { PlatformOutboxFillfactor1795900000000 } from './platform-outbox-fillfactor.migration';
import { PlatformOutboxJson1795800000001 } from './platform-outbox-json.migration';
import { PlatformRateLimits1764950000000 } from './platform-rate-limits.migration';
import { PlatformTables1763769600000 } from './platform-tables.migration';

/**
 * The platform's migrations (outbox, processed_messages, jobs, rate_limit_buckets, the jobs' trace context and correlation id, the outbox envelope as json, the outbox's fill factor), in order: every service's
 * datasource lists them first (`[...PLATFORM_MIGRATIONS, ...its own]`). The platform adds new
 * ones here, so services pick them up without editing their datasource.
 */
export const PLATFORM_MIGRATIONS: (new () => MigrationInterface)[] = [
  PlatformTables1763769600000,
  PlatformJobs1763769700000,
  PlatformJobsClaim1763770800000,
  PlatformRateLimits1764950000000,
  PlatformJobsTrace1795610642000,
  PlatformJobsCorrelation1795700000000,
  PlatformOutboxJson1795800000001,
  PlatformOutboxFillfactor1795900000000,
];
