/**
 * A bounded map that forgets the least recently used entries, in two
 * generations (as hashlru): entries live in `recent` or `old`; a hit in
 * `recent` is a single Map lookup (no delete and re-insert per hit, which the
 * issue 11.6 profile showed on the hot path: tokens, profiles, lookups); a hit
 * in `old` moves the entry to `recent`. When `recent` holds half the bound it
 * becomes `old`, and the previous `old` (entries unused for a whole
 * generation) is dropped. At most `max` entries are held.
 */
export class Lru<K, V> {
  private recent = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(max: number) {
    this.half = Math.max(1, Math.floor(max / 2));
  }

  get(key: K): V | undefined {
    const value = this.recent.get(key);
    if (value !== undefined) return value;
    const older = this.old.get(key);
    if (older !== undefined) {
      this.old.delete(key);
      this.insert(key, older);
    }
    return older;
  }

  set(key: K, value: V) {
    if (this.recent.has(key)) {
      this.recent.set(key, value);
      return;
    }
    this.old.delete(key);
    this.insert(key, value);
  }

  private insert(key: K, value: V) {
    this.recent.set(key, value);
    if (this.recent.size >= this.half) {
      this.old = this.recent;
      this.recent = new Map();
    }
  }

  delete(key: K) {
    this.recent.delete(key);
    this.old.delete(key);
  }

  /** Removes every entry the predicate matches. */
  deleteWhere(predicate: (key: K, value: V) => boolean) {
    for (const map of [this.recent, this.old]) for (const [k, v] of map) if (predicate(k, v)) map.delete(k);
  }

  clear() {
    this.recent.clear();
    this.old.clear();
  }

  get size() {
    return this.recent.size + this.old.size;
  }
}
