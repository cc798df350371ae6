import { describe, expect, it } from 'vitest';
import { Lru } from './lru';

describe('Lru', () => {
  it('holds at most max entries and keeps the recently used ones', () => {
    const lru = new Lru<number, number>(10);
    for (let i = 0; i < 100; i++) {
      lru.set(i, i);
      expect(lru.get(0)).toBe(0); // used all along: never forgotten
      expect(lru.size).toBeLessThanOrEqual(10);
    }
    expect(lru.get(99)).toBe(99);
    expect(lru.get(1)).toBeUndefined();
  });

  it('replaces, deletes and clears in both generations', () => {
    const lru = new Lru<string, number>(4);
    lru.set('a', 1);
    lru.set('b', 2); // a, b now the older generation
    lru.set('a', 3);
    expect(lru.get('a')).toBe(3);
    lru.set('c', 4);
    lru.deleteWhere((k) => k === 'b' || k === 'c');
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([3, undefined, undefined]);
    lru.delete('a');
    expect(lru.get('a')).toBeUndefined();
    lru.set('d', 5);
    lru.clear();
    expect(lru.size).toBe(0);
  });
});
