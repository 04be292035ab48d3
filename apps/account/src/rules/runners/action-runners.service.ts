import { JobQueueService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';

import { ACTION_QUEUES, ActionJobPayload } from '../engine/action-queues';
import { CreateCheckRunner } from './create-check.runner';
import { EmailRunner } from './email.runner';
import { HttpRequestRunner } from './http-request.runner';

/** Retry n (1-based) after 1 s, 2 s, 4 s … capped at 5 minutes, with ±20 % jitter. */
export const actionBackoffMs = (attempt: number) =>
  Math.round(Math.min(300_000, 1_000 * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4));

/** Registers the action queues with the service's durable job queue. */
@Injectable()
export class ActionRunnersService implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueueService,
    private readonly http: HttpRequestRunner,
    private readonly email: EmailRunner,
    private readonly createCheck: CreateCheckRunner,
  ) {}

  onModuleInit(): void {
    // Calls out (HTTP, SMTP): not transactional, so they are at-least-once; the Idempotency-Key and Message-ID let receivers deduplicate.
    this.jobs.register<ActionJobPayload>(ACTION_QUEUES.http_request, (job, m) => this.http.run(job, m), {
      concurrency: 16,
      lockMs: 60_000,
      backoffMs: actionBackoffMs,
    });
    this.jobs.register<ActionJobPayload>(ACTION_QUEUES.email, (job, m) => this.email.run(job, m), {
      concurrency: 4,
      lockMs: 120_000,
      backoffMs: actionBackoffMs,
    });
    // Writes an outbox row only: transactional, exactly once.
    this.jobs.register<ActionJobPayload>(ACTION_QUEUES.create_check, (job, m) => this.createCheck.run(job, m), {
      concurrency: 4,
      lockMs: 60_000,
      backoffMs: actionBackoffMs,
      transactional: true,
    });
  }
}
