import { CHECK_PENDING_REQUESTS_INTERVAL_MS, fixKafkajsRequestQueue } from './kafkajs-request-queue.fix';

// kafkajs's own RequestQueue (the class every broker connection uses), driven without a broker.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue');

const logger = { debug() {}, info() {}, warn() {}, error() {} };

function newQueue() {
  return new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'localhost:9092',
    logger,
  });
}

let nextId = 1;
/** Pushes a request expecting a response; resolves with its correlation id once the queue sends it. */
function push(queue: { push(r: unknown): void }) {
  const correlationId = nextId++;
  const sent = jest.fn();
  const answered = jest.fn();
  queue.push({
    entry: { correlationId, apiKey: 0, apiName: 'Produce', apiVersion: 3, resolve: answered, reject: jest.fn() },
    expectResponse: true,
    sendRequest: sent,
  });
  return { correlationId, sent, answered };
}
const respond = (queue: { fulfillRequest(r: unknown): void }, correlationId: number) =>
  queue.fulfillRequest({ correlationId, payload: Buffer.alloc(0), size: 0 });

describe('kafkajs RequestQueue fix (no idle timer loop)', () => {
  afterEach(() => jest.useRealTimers());

  it('schedules nothing after a response when nothing is pending or throttled (kafkajs 2.2.4 re-armed a 1 ms timer forever)', () => {
    const queue = newQueue();
    const first = push(queue);
    expect(first.sent).toHaveBeenCalledTimes(1);
    const timers = jest.spyOn(global, 'setTimeout');
    try {
      respond(queue, first.correlationId);
      expect(first.answered).toHaveBeenCalledTimes(1);
      expect(queue.throttleCheckTimeoutId).toBeNull();
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
      queue.destroy();
    }
  });

  it('still sends a request that waited for an in-flight slot, when the in-flight one is answered, and then goes quiet', () => {
    jest.useFakeTimers();
    const queue = newQueue();
    const first = push(queue);
    const second = push(queue);
    expect(second.sent).not.toHaveBeenCalled();
    respond(queue, first.correlationId);
    expect(second.sent).toHaveBeenCalledTimes(1);
    respond(queue, second.correlationId);
    expect(second.answered).toHaveBeenCalledTimes(1);
    // The check armed while the second request was pending runs once and arms nothing more.
    jest.advanceTimersByTime(CHECK_PENDING_REQUESTS_INTERVAL_MS);
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1_000);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('sends a request held by client-side throttling when the throttle ends, with no other event', () => {
    jest.useFakeTimers();
    const queue = newQueue();
    queue.maybeThrottle(50);
    const held = push(queue);
    expect(held.sent).not.toHaveBeenCalled();
    jest.advanceTimersByTime(49);
    expect(held.sent).not.toHaveBeenCalled();
    jest.advanceTimersByTime(CHECK_PENDING_REQUESTS_INTERVAL_MS);
    expect(held.sent).toHaveBeenCalledTimes(1);
    respond(queue, held.correlationId);
    expect(jest.getTimerCount()).toBe(0);
    queue.destroy();
  });

  it('re-checks a pending request every CHECK_PENDING_REQUESTS_INTERVAL_MS until a slot frees (as kafkajs does)', () => {
    jest.useFakeTimers();
    const queue = newQueue();
    const first = push(queue);
    const second = push(queue);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(CHECK_PENDING_REQUESTS_INTERVAL_MS * 3);
    expect(second.sent).not.toHaveBeenCalled();
    respond(queue, first.correlationId);
    expect(second.sent).toHaveBeenCalledTimes(1);
    queue.destroy();
  });

  it('is applied once however often it is called', () => {
    const method = RequestQueue.prototype.scheduleCheckPendingRequests;
    fixKafkajsRequestQueue();
    expect(RequestQueue.prototype.scheduleCheckPendingRequests).toBe(method);
  });
});
