import { JobQueueService } from '@kyc/platform';
import { Module } from '@nestjs/common';

import { ChecksConfig } from '../config/checks.config';
import { COLLECTORS, WEBHOOK_PARSERS } from './collector';
import { CollectorRegistry } from './collector.registry';
import { limitPerDatabase } from './database-concurrency';
import {
  SANDBOX_CALLBACK_QUEUE,
  SandboxCallbackScheduler,
  sandboxCollectors,
  SandboxWebhookParser,
} from './sandbox/sandbox-collector';

/**
 * The databases this installation consults. Only the sandbox registry ships (government and
 * commercial sources cannot be reached from here); a real collector implements `Collector` and is
 * added to the COLLECTORS list below (and its webhook parser, if it answers asynchronously, to
 * WEBHOOK_PARSERS). See docs/services/checks.md, "Adding a real collector".
 */
@Module({
  providers: [
    {
      provide: COLLECTORS,
      inject: [ChecksConfig, JobQueueService],
      useFactory: (config: ChecksConfig, jobs: JobQueueService) => {
        const scheduler: SandboxCallbackScheduler = {
          schedule: async (callback, runAt) => {
            await jobs.enqueue(null, SANDBOX_CALLBACK_QUEUE, callback, {
              runAt,
              dedupeKey: `sandbox-callback:${callback.reference}:${callback.attempt}`,
            });
          },
        };
        return sandboxCollectors(
          {
            latencyScale: config.CHECKS_SANDBOX_LATENCY_SCALE,
            failureRate: config.CHECKS_SANDBOX_FAILURE_RATE,
            overrides: config.sandboxOverrides,
          },
          scheduler,
        ).map((collector) => limitPerDatabase(collector, config.CHECKS_COLLECTOR_CONCURRENCY_PER_DATABASE));
      },
    },
    { provide: WEBHOOK_PARSERS, useValue: [new SandboxWebhookParser()] },
    CollectorRegistry,
  ],
  exports: [CollectorRegistry],
})
export class CollectorsModule {}
