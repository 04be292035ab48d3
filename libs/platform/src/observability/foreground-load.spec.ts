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
});
