import { afterEach, describe, expect, it, vi } from 'vitest';
import { Drain, liveAnswer, postgresCheck, readinessAnswer, redisCheck, reusedFor, within } from './health';

afterEach(() => {
  vi.useRealTimers();
});

const never = () => new Promise<never>(() => undefined);

describe('within', () => {
  it("answers the work's value, or the fallback when it fails or is late", async () => {
    expect(await within(Promise.resolve('up'), 100, 'down')).toBe('up');
    expect(await within(Promise.reject(new Error('refused')), 100, 'down')).toBe('down');
    vi.useFakeTimers();
    const late = within(never(), 1500, 'down');
    await vi.advanceTimersByTimeAsync(1499);
    let settled = false;
    void late.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await late).toBe('down');
  });
});

describe('dependency checks', () => {
  it('reads Postgres and Redis as up, down or off, and a hung one as down in time', async () => {
    expect(await postgresCheck({ query: async () => ({ rows: [], rowCount: 1 }) })).toBe('up');
    expect(await postgresCheck({ query: () => Promise.reject(new Error('ECONNREFUSED')) })).toBe('down');
    expect(await redisCheck({ kind: 'memory', ping: never })).toBe('off');
    expect(await redisCheck({ kind: 'redis', ping: async () => true })).toBe('up');
    expect(await redisCheck({ kind: 'redis', ping: async () => false })).toBe('down');
    vi.useFakeTimers();
    const hung = Promise.all([
      postgresCheck({ query: never }, 1500),
      redisCheck({ kind: 'redis', ping: never }, 1500),
    ]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(await hung).toEqual(['down', 'down']);
  });
});

describe('reusedFor', () => {
  it('runs the check once for callers at the same time and reuses the answer for the ttl', async () => {
    let clock = 0;
    let runs = 0;
    let release: (v: number) => void = () => undefined;
    const check = reusedFor(
      1000,
      () =>
        new Promise<number>((resolve) => {
          runs++;
          release = resolve;
        }),
      () => clock,
    );
    const a = check();
    const b = check();
    release(1);
    expect([await a, await b]).toEqual([1, 1]);
    expect(runs).toBe(1);
    clock = 999;
    expect(await check()).toBe(1);
    expect(runs).toBe(1);
    clock = 1000;
    const c = check();
    release(2);
    expect(await c).toBe(2);
    expect(runs).toBe(2);
  });

  it('keeps no failed run', async () => {
    let fail = true;
    const check = reusedFor(1000, async () => {
      if (fail) throw new Error('boom');
      return 'ok';
    });
    await expect(check()).rejects.toThrow('boom');
    fail = false;
    expect(await check()).toBe('ok');
  });
});

describe('probe answers', () => {
  it('liveness asks nothing', () => {
    expect(liveAnswer('case')).toEqual({
      statusCode: 200,
      body: { status: 'ok', service: 'case', checks: {} },
    });
  });

  it('readiness is 503 naming the needed checks that are down, degraded for the others', () => {
    expect(readinessAnswer('case', { postgres: 'up', redis: 'off' }, ['postgres'], false)).toEqual({
      statusCode: 200,
      body: { status: 'ok', service: 'case', checks: { postgres: 'up', redis: 'off' } },
    });
    expect(readinessAnswer('case', { postgres: 'up', redis: 'down' }, ['postgres'], false)).toEqual({
      statusCode: 200,
      body: { status: 'degraded', service: 'case', checks: { postgres: 'up', redis: 'down' } },
    });
    const checks = { redis: 'down', case: 'up', user: 'down' } as const;
    expect(readinessAnswer('gateway', checks, ['redis', 'case', 'user'], false)).toEqual({
      statusCode: 503,
      body: { status: 'down', service: 'gateway', checks, down: ['redis', 'user'] },
    });
  });

  it('readiness is 503 while draining, whatever the checks say', () => {
    expect(readinessAnswer('gateway', {}, ['redis'], true)).toEqual({
      statusCode: 503,
      body: { status: 'down', service: 'gateway', checks: {}, draining: true, down: ['draining'] },
    });
  });
});

describe('Drain', () => {
  it('starts once and stays on', () => {
    const drain = new Drain();
    expect(drain.draining).toBe(false);
    drain.start();
    drain.start();
    expect(drain.draining).toBe(true);
  });
});
