import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchedRedisStore } from '../../../gateway/src/rate-limit/batched-store';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The rate-limit store of two gateway replicas over one real Redis: what one
 * counts, the other sees after a sync, also when it only peeks (the sign-in
 * failure ceiling of issue 27.A is read on one replica and counted on another).
 */
let t: TestEnv;
let replicas: BatchedRedisStore[];
beforeAll(async () => {
  t = await createTestEnv();
  const redis = t.deps.cache.redis!;
  const fail = (error: Error) => {
    throw error;
  };
  replicas = [0, 1].map(() => new BatchedRedisStore(redis, 'rl-store-test:', fail, () => true, 20));
});
afterAll(async () => {
  for (const store of replicas) store.close();
  await t.close();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 120));
const incr = (store: BatchedRedisStore, key: string) =>
  new Promise<number>((resolve, reject) =>
    store.incr(key, (error, answer) => (error ? reject(error) : resolve(answer!.current)), 60_000),
  );

describe('BatchedRedisStore across replicas', () => {
  it('counts on one replica, and the other sees the shared total when it counts or peeks', async () => {
    const [a, b] = replicas as [BatchedRedisStore, BatchedRedisStore];
    for (let i = 0; i < 3; i++) await incr(a, 'k');
    await settle();
    // A replica that never counted the key learns the total from the sync its first peek asks for.
    expect(b.peek('k', 60_000).current).toBe(0);
    await settle();
    expect(b.peek('k', 60_000).current).toBe(3);
    expect(await incr(b, 'k')).toBe(4);
    await settle();
    // What it knew at its last sync; the peek asks for the next.
    expect(a.peek('k', 60_000).current).toBe(3);
    await settle();
    expect(a.peek('k', 60_000).current).toBe(4);
    await settle();
    // Peeking counts nothing.
    expect(a.peek('k', 60_000).current).toBe(4);
    expect(b.peek('k', 60_000).current).toBe(4);
  });

  it('a peek of a key nobody counted stays 0 and expires with its window', async () => {
    const [a] = replicas as [BatchedRedisStore];
    expect(a.peek('never', 200).current).toBe(0);
    await settle();
    expect(a.peek('never', 200).current).toBe(0);
  });
});
