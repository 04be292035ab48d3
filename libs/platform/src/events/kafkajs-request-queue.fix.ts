/**
 * Stops kafkajs 2.2.4's idle timer loop (tulios/kafkajs#1556, #1704; fixes proposed in #1667 and
 * #1768, unreleased): after every response each broker connection's RequestQueue schedules its
 * next pending-requests check at `throttledUntil - Date.now()`, which is negative when nothing is
 * throttled (throttledUntil is -1), so Node runs it after 1 ms, and it schedules itself again:
 * every connection wakes its process about a thousand times a second for nothing, and under load
 * the same timers compete with the requests (docs/decisions/kafkajs-idle-timer.md).
 *
 * The replacement schedules a check only when there is something to check: pending requests
 * (at the end of a throttle, or after CHECK_PENDING_REQUESTS_INTERVAL), or a throttle still
 * running. Nothing else changes: a pushed request that cannot go out at once is pending, so it
 * schedules a check, and every response calls checkPendingRequests directly.
 *
 * Applied once, to the RequestQueue class that every kafkajs client of the process shares
 * (producers, consumers, admin), when this module is imported (from events/kafka.ts, before any
 * client exists). If a kafkajs upgrade moves or renames the class or method, applying throws at
 * start-up rather than silently leaving the loop in place; see the test next to this file.
 */
// kafkajs has no `exports` map, so its internals can be required; it ships no types for them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };

/** The same value as kafkajs's own (a module constant it does not export). */
export const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  [FIXED]?: true;
}

const FIXED = Symbol.for('kyc.kafkajs.requestQueueFixed');

function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
  if (this.throttleCheckTimeoutId) return; // a check is already scheduled
  const untilUnthrottled = this.throttledUntil - Date.now();
  let delay: number;
  if (this.pending.length > 0) delay = untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  else if (untilUnthrottled > 0) delay = untilUnthrottled;
  else return; // nothing pending, nothing throttled: the next push or response checks again
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delay);
}

export function fixKafkajsRequestQueue(): void {
  const proto = RequestQueue?.prototype;
  if (
    !proto ||
    typeof proto.scheduleCheckPendingRequests !== 'function' ||
    typeof proto.checkPendingRequests !== 'function'
  ) {
    throw new Error(
      'kafkajs RequestQueue.scheduleCheckPendingRequests not found: review libs/platform/src/events/kafkajs-request-queue.fix.ts for this kafkajs version',
    );
  }
  if (proto[FIXED]) return;
  proto.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  proto[FIXED] = true;
}

fixKafkajsRequestQueue();
