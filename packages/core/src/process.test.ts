import { afterEach, describe, expect, it, vi } from 'vitest';
import { Drain } from './health';
import type { Logger } from './logger';
import { drainThenClose } from './process';

const log = { info: vi.fn(), error: vi.fn() } as unknown as Logger;

afterEach(() => {
  vi.useRealTimers();
});

describe('drainThenClose', () => {
  it('drains at once, keeps serving for the drain seconds, then closes in order', async () => {
    vi.useFakeTimers();
    const drains = [new Drain(), new Drain()];
    const closed: string[] = [];
    const done = drainThenClose(
      log,
      [
        async () => closed.push('app'),
        () => Promise.reject(new Error('cache already closed')),
        async () => closed.push('db'),
      ],
      { drains, drainSeconds: 2 },
    );
    expect(drains.map((d) => d.draining)).toEqual([true, true]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(closed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    // A closer that fails is logged; the next ones still run.
    expect(closed).toEqual(['app', 'db']);
    expect(log.error).toHaveBeenCalledOnce();
  });

  it('closes at once without a drain time', async () => {
    const drain = new Drain();
    const closed: string[] = [];
    await drainThenClose(log, [async () => closed.push('app')], { drains: [drain], drainSeconds: 0 });
    expect(drain.draining).toBe(true);
    expect(closed).toEqual(['app']);
  });
});
