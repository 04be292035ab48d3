import type { JobQueueService } from '@kyc/platform';

/** The statements of the webhook_events table, run by WebhookEventStore only. Values are always bound parameters. */

/** A received webhook ($1 digest, $2 time) and its job ($3, a JSON array of one JobRow). */
export const receiveWebhookSql = (jobs: JobQueueService) => `WITH evt AS (
       INSERT INTO webhook_events (digest, received_at, processed_at) VALUES ($1, $2, NULL) ON CONFLICT DO NOTHING
     )
     ${jobs.insertSql('$3')}`;

/** Marks the webhook $1 processed at $2 (in its processing transaction). */
export const PROCESSED_WEBHOOK_SQL = `UPDATE webhook_events SET processed_at = $2 WHERE digest = $1`;
