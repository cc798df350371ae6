import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCache } from '@portal/core';
import { createTestEnv, type TestEnv } from '../../support/test-env';

let t: TestEnv;
let other: RedisCache;
beforeAll(async () => {
  t = await createTestEnv();
  other = new RedisCache({ url: t.redisUrl, keyPrefix: `${t.redisPrefix}other:` });
  await other.ready();
});
afterAll(async () => {
  await other.close();
  await t.close();
});

describe('Redis cache adapter', () => {
  it('stores with a TTL under the run prefix only', async () => {
    await t.deps.cache.set('k1', 'v1', 60);
    expect(await t.deps.cache.get('k1')).toBe('v1');
    expect(await other.get('k1')).toBeNull();
    const ttl = await t.deps.cache.redis!.ttl('k1');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('deletes by prefix without touching other keys', async () => {
    await t.deps.cache.set('user:acme:1:profile', 'a', 60);
    await t.deps.cache.set('user:acme:2:profile', 'b', 60);
    await t.deps.cache.set('lookup:acme:cycles', 'c', 60);
    await t.deps.cache.delPrefix('user:acme:');
    expect(await t.deps.cache.get('user:acme:1:profile')).toBeNull();
    expect(await t.deps.cache.get('user:acme:2:profile')).toBeNull();
    expect(await t.deps.cache.get('lookup:acme:cycles')).toBe('c');
  });

  it('delivers published messages to subscribers of the same prefix', async () => {
    const received = new Promise<string>(
      (resolve) => void t.deps.cache.subscribe('portal:invalidate', resolve),
    );
    // Give the subscriber connection a moment to subscribe.
    await new Promise((r) => setTimeout(r, 100));
    await t.deps.cache.publish('portal:invalidate', JSON.stringify({ tenant: 'acme', kind: 'user', id: 7 }));
    expect(JSON.parse(await received)).toEqual({ tenant: 'acme', kind: 'user', id: 7 });
  });

  it('answers a miss instead of failing when Redis cannot be reached', async () => {
    const dead = new RedisCache({ url: 'redis://127.0.0.1:1', keyPrefix: 'x:' });
    const started = Date.now();
    expect(await dead.get('anything')).toBeNull();
    await dead.set('anything', 'v', 10);
    expect(await dead.ping()).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
    await dead.close();
  });
});
