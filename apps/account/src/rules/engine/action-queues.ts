import type { ActionType } from '../actions/action-config';

/** The durable job queue each action type runs on (JobQueueService, in the account schema). */
export const ACTION_QUEUES: Record<ActionType, string> = {
  http_request: 'bre.http_request',
  email: 'bre.email',
  create_check: 'bre.create_check',
};

/** What an action job carries: the execution to run (everything else is read when it runs). */
export interface ActionJobPayload {
  execution_id: string;
  event_id: string;
}

/** One job per event and action, ever: a redelivered event cannot enqueue an action twice. */
export const actionJobKey = (eventId: string, actionId: string) => `bre:${eventId}:${actionId}`;
