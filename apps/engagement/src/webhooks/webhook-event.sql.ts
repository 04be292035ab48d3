import type { JobQueueService } from '@kyc/platform';

/** The statements of the webhook_events table, run by WebhookEventStore only. Values are always bound parameters. */

/** A received webhook ($1 digest, $2 time) and its job ($3, a JSON array of one JobRow). */
export const receiveWebhookSql = (jobs: JobQueueService) => `WITH evt AS (
       INSERT INTO webhook_events (digest, received_at, processed_at) VALUES ($1, $2, NULL) ON CONFLICT DO NOTHING
     )
     ${jobs.insertSql('$3')}`;
