import { randomBytes } from 'node:crypto';
import type { CacheResult } from './cached-source';
import type { GuardedCache } from './guarded-cache';
import { SingleFlight } from './single-flight';
import type { UpstreamAnswer } from '../upstreams/pools';

export const reportPrefix = (tenant: string) => `gw:report:${tenant}:`;
const wroteKey = (tenant: string, userId: number) => `gw:wrote:${tenant}:${userId}`;

/**
 * Report and dashboard answers, shared for a few seconds by everyone of a tenant who sees the same
 * cases (design §4 step 8). Their figures come from rollups that change with every write, so no
 * invalidation could keep up; instead an answer is at most `ttlSeconds` old, which the web app's own
 * 30 s query cache already allows, and the person who wrote sees their write at once:
 *
 * - every write through the gateway leaves a marker for its user (a fresh nonce, kept a second longer
 *   than an answer), and while it lasts that user's answers are loaded and kept under the nonce,
 *   apart from the shared ones;
 * - when it ends, every shared answer still kept was loaded after the write: an answer is kept for
 *   `ttlSeconds` from the start of its load, less than the marker, and Redis's own clock expires
 *   both (no two gateways' clocks are compared).
 *
 * Without Redis (breaker open), or with `ttlSeconds` 0 (REPORT_SHARE_SECONDS), every call goes to the
 * case service.
 */
export class ReportAnswers {
  private readonly flight = new SingleFlight<UpstreamAnswer>();

  constructor(
    private readonly store: GuardedCache,
    private readonly ttlSeconds: number,
    private readonly onResult: (name: string, result: CacheResult) => void,
  ) {}

  async get(
    tenant: string,
    userId: number,
    key: string,
    load: () => Promise<UpstreamAnswer>,
  ): Promise<{ value: UpstreamAnswer; result: CacheResult }> {
    if (this.ttlSeconds <= 0 || !this.store.usable) return { value: await load(), result: 'MISS' };
    const [wrote, cached] = await Promise.all([
      this.store.get(wroteKey(tenant, userId)),
      this.store.get(key),
    ]);
    const own = wrote === null ? key : `${key}#${userId}.${wrote}`;
    const hit = own === key ? cached : await this.store.get(own);
    if (hit !== null) {
      try {
        const value = JSON.parse(hit) as UpstreamAnswer;
        this.onResult('report', 'HIT');
        return { value, result: 'HIT' };
      } catch {
        // A corrupt entry is a miss.
      }
    }
    const value = await this.flight.run(own, async () => {
      const started = performance.now();
      const answer = await load();
      const keep = Math.floor(this.ttlSeconds - (performance.now() - started) / 1000);
      if (answer.status === 200 && keep >= 1) await this.store.set(own, JSON.stringify(answer), keep);
      return answer;
    });
    this.onResult('report', 'MISS');
    return { value, result: 'MISS' };
  }

  /** After a write by this user answered, before the answer leaves: their next reports are their own. */
  noteWrite(tenant: string, userId: number): Promise<void> | undefined {
    if (this.ttlSeconds <= 0) return undefined;
    return this.store.set(
      wroteKey(tenant, userId),
      randomBytes(6).toString('base64url'),
      this.ttlSeconds + 1,
    );
  }
}
