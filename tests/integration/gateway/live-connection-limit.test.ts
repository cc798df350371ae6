import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger, loadEnv } from '@portal/core';
import { ConnectionLimit } from '../../../gateway/src/live/connection-limit';

/**
 * The cap of live streams per user holds as long as the streams are open:
 * heartbeats keep both the slots and the set (found by the crowd bench: the
 * set lapsed 90 s after the last new stream and a sixth stream got in).
 */
describe('live stream cap across a long-held stream', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(inject('testRun').redisUrl, { keyPrefix: `test:live-cap:${randomUUID()}:` });
    await redis.ping(); // ready: the limit counts per process while Redis is not
  });
  afterAll(() => redis.disconnect());

  it('refuses a second stream after the first was renewed past twice the slot time', async () => {
    const log = createLogger(loadEnv(['gateway'], { LOG_LEVEL: 'silent' }), 'test');
    const slotMs = 150;
    const limit = new ConnectionLimit(redis, 1, slotMs, log);
    expect(await limit.acquire('acme', 7, 'first')).toBe(true);
    // Heartbeats for 4× the set's expiry (2 × slotMs).
    for (let i = 0; i < 12; i++) {
      limit.renew('acme', 7, 'first');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await limit.acquire('acme', 7, 'second')).toBe(false);
    limit.release('acme', 7, 'first');
    await expect.poll(() => limit.acquire('acme', 7, 'third')).toBe(true);
  });
});
