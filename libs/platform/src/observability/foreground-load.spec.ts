import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

import { ForegroundLoad } from './foreground-load';

describe('ForegroundLoad', () => {
  afterEach(() => jest.useRealTimers());

  it('is busy from yieldAt requests in flight, and for a moment after they drop below it', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const load = new ForegroundLoad();
    load.yieldAt = 3;
    load.started();
    load.started();
    expect(load.busy).toBe(false);
    load.started();
    expect(load.current).toBe(3);
    expect(load.busy).toBe(true);
    load.finished();
    load.finished();
    expect(load.busy).toBe(true); // held: callers are likely still queueing
    jest.advanceTimersByTime(300);
    expect(load.busy).toBe(false);
  });

  it('never says busy when yielding is off (yieldAt 0)', () => {
    const load = new ForegroundLoad();
    for (let i = 0; i < 100; i++) load.started();
    expect(load.busy).toBe(false);
  });

  it('counts a request until its response closes, or until it turns into a stream, once', () => {
    const load = new ForegroundLoad();
    load.yieldAt = 2;
    const plain = new EventEmitter() as unknown as ServerResponse;
    const streams = [1, 2, 3].map(() => new EventEmitter() as unknown as ServerResponse);
    load.track(plain);
    for (const s of streams) load.track(s);
    expect(load.current).toBe(4);
    // Open push channels wait idle for events: they are not load the job queues yield to.
    for (const s of streams) load.streaming(s);
    expect(load.current).toBe(1);
    for (const s of streams) (s as unknown as EventEmitter).emit('close');
    load.streaming(plain);
    (plain as unknown as EventEmitter).emit('close');
    expect(load.current).toBe(0);
  });
});
