import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { contextWithoutUser, type Logger } from '@portal/core';
import { callUpstream, type Pools } from '../upstreams/pools';
import { auditEntryOf, type AuditEntry } from './audit-entry';
import { GroupCommit, type CommitOutcome } from './group-commit';

interface AuditOptions {
  /** How often the fallback buffer is sent (ms). */
  flushMs?: number;
  /** Entries per batch (the user service takes up to 500). */
  batchSize?: number;
  /** Entries kept while the user service is unreachable; beyond it the oldest are dropped (and counted in the log). */
  maxBuffered?: number;
  /** Time limit of a fallback batch (ms). */
  timeoutMs?: number;
  /** Longest a request waits for its entry to be stored before it is answered anyway (ms). */
  waitMs?: number;
}

/**
 * What became of an audited request's entry when it was answered: stored, or
 * kept in memory (durability degraded) because the user service failed, was
 * too slow, had just failed (`backoff`: not tried), the gateway was closing, or
 * the answer never passed onSend (`after-answer`).
 */
export type AuditOutcome = CommitOutcome | 'backoff' | 'closing' | 'after-answer';

/** The longest an answer waits for its audit entry (design §11: the audit must not hold a request up). */
export const AUDIT_WAIT_MS = 2000;

/**
 * The audit trail of gateway calls (design §11, issues 19 and 31): every write
 * of a signed-in user and every impersonated call, in the user service's table.
 *
 * An answered request's entry must survive a crash of this process, and the
 * gateway has nothing durable of its own (Redis here keeps nothing on disk and
 * is itself killed under load), so the entry is stored before the answer goes
 * out: `record` runs in onSend and adds the entry to its tenant's group commit
 * (one batch in flight per tenant, what arrives meanwhile goes in the next, so
 * at load many requests share one POST and each pays about one round trip).
 *
 * The audit never fails a request (its write upstream already happened): when
 * the user service fails or does not answer within the wait, the entry falls
 * back to the in-memory buffer, sent by a timer with retry and backoff as
 * before, and the outcome says so (counted by the pipeline, warned here). After
 * a failure, requests skip the wait for one flush period (`backoff`), so an
 * outage costs each write nothing. Each entry carries its own id, so an entry
 * sent twice (batch and fallback, or a lost answer) is stored once. Every
 * gateway instance sends its own entries: scaling out needs nothing shared.
 */
export class GatewayAudit {
  private buffer: Array<{ tenant: string; entry: AuditEntry }> = [];
  private readonly addresses = new WeakMap<FastifyRequest, string>();
  /** Requests whose entry was made in onSend (onResponse does not make it again). */
  private readonly recorded = new WeakSet<FastifyRequest>();
  private readonly commits = new Map<string, GroupCommit<AuditEntry>>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  private failures = 0;
  private retryAt = 0;
  private dropped = 0;
  /** Entries answered before they were stored, since the last warning. */
  private degraded = 0;
  /** Until then requests do not wait (the user service failed just now). */
  private skipUntil = 0;
  private closing = false;
  private readonly flushMs: number;
  private readonly batchSize: number;
  private readonly maxBuffered: number;
  private readonly timeoutMs: number;
  private readonly waitMs: number;

  constructor(
    private readonly pools: Pools,
    private readonly secret: string,
    private readonly log: Logger,
    options: AuditOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1000;
    this.batchSize = Math.min(options.batchSize ?? 200, 500);
    this.maxBuffered = options.maxBuffered ?? 20_000;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.waitMs = options.waitMs ?? AUDIT_WAIT_MS;
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /**
   * Called as a request arrives: the client address is read while the socket is there (a proxied call
   * answered on a closing connection has no socket left later).
   */
  begin(request: FastifyRequest): void {
    this.addresses.set(request, request.ip);
  }

  /**
   * Called before an answer is sent (onSend: the status is final, nothing written yet). Null when the
   * call is not audited: it goes on at once. Otherwise resolves (never rejects) once the entry is stored,
   * or is in the fallback buffer, within `capMs` and the wait bound.
   */
  record(request: FastifyRequest, status: number, capMs = Infinity): Promise<AuditOutcome> | null {
    // Once per request, should an answer pass onSend twice (an error sent in place of the first).
    if (this.recorded.has(request)) return null;
    let tenant: string | undefined;
    let entry: AuditEntry | null;
    try {
      tenant = request.tenant?.config.id;
      entry = tenant ? auditEntryOf(request, status, this.addresses.get(request)) : null;
    } catch (error) {
      this.log.error({ err: error }, 'audit entry not made');
      return null;
    }
    if (!tenant || !entry) return null;
    this.recorded.add(request);
    if (this.closing || Date.now() < this.skipUntil) {
      this.fallback(tenant, [entry]);
      return Promise.resolve(this.closing ? 'closing' : 'backoff');
    }
    return this.commitOf(tenant).add(entry, Math.max(0, Math.min(this.waitMs, capMs)));
  }

  /**
   * Called once per answered request (onResponse): an audited answer that did not pass onSend (written
   * past fastify) is buffered here. Cheap, synchronous, never throws into the request; true when buffered.
   */
  observe(request: FastifyRequest, status: number): boolean {
    if (this.recorded.has(request)) return false;
    try {
      const tenant = request.tenant?.config.id;
      const entry = tenant ? auditEntryOf(request, status, this.addresses.get(request)) : null;
      if (!tenant || !entry) return false;
      this.fallback(tenant, [entry]);
      return true;
    } catch (error) {
      this.log.error({ err: error }, 'audit entry not made');
      return false;
    }
  }

  /** Entries waiting in the fallback buffer (health and tests). */
  get pending(): number {
    return this.buffer.length;
  }

  /** Sends what is buffered; concurrent calls share one run. */
  flush(force = false): Promise<void> {
    if (this.degraded > 0) {
      this.log.warn(
        { entries: this.degraded },
        'audit entries answered before they were stored: kept in memory until the user service takes them',
      );
      this.degraded = 0;
    }
    if (this.flushing) return this.flushing;
    if (this.buffer.length === 0 || (!force && Date.now() < this.retryAt)) return Promise.resolve();
    this.flushing = this.send().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private commitOf(tenant: string): GroupCommit<AuditEntry> {
    let commit = this.commits.get(tenant);
    if (!commit) {
      commit = new GroupCommit<AuditEntry>({
        maxBatch: this.batchSize,
        send: async (batch) => {
          // Its own time limit is the wait: a batch no one waits for any more does not hold the next one up.
          if ((await this.post(tenant, batch, this.waitMs)) === 'retry') return false;
          this.skipUntil = 0;
          // The user service answers again: the backlog need not wait out its backoff.
          this.retryAt = 0;
          return true;
        },
        // Failed or too slow: the requests after it do not wait until the next flush period (warned there).
        fallback: (entries) => {
          this.fallback(tenant, entries);
          this.skipUntil = Date.now() + this.flushMs;
        },
      });
      this.commits.set(tenant, commit);
    }
    return commit;
  }

  /** Into the bounded buffer, sent by the timer; counted as answered before stored. */
  private fallback(tenant: string, entries: AuditEntry[]) {
    for (const entry of entries) {
      if (this.buffer.length >= this.maxBuffered) {
        this.buffer.shift();
        this.dropped++;
      }
      this.buffer.push({ tenant, entry });
    }
    this.degraded += entries.length;
  }

  private async send(): Promise<void> {
    if (this.dropped > 0) {
      this.log.error({ dropped: this.dropped }, 'audit buffer full: oldest entries dropped');
      this.dropped = 0;
    }
    while (this.buffer.length > 0) {
      const tenant = this.buffer[0]!.tenant;
      const batch: AuditEntry[] = [];
      const rest: typeof this.buffer = [];
      for (const item of this.buffer) {
        if (item.tenant === tenant && batch.length < this.batchSize) batch.push(item.entry);
        else rest.push(item);
      }
      this.buffer = rest;
      const outcome = await this.post(tenant, batch, this.timeoutMs);
      if (outcome === 'retry') {
        // Back in front of anything recorded meanwhile, within the bound; retried after a backoff.
        const back = batch.map((entry) => ({ tenant, entry }));
        this.buffer = back.concat(this.buffer).slice(-this.maxBuffered);
        this.failures++;
        this.retryAt = Date.now() + Math.min(30_000, this.flushMs * 2 ** Math.min(this.failures, 5));
        return;
      }
      this.failures = 0;
      this.retryAt = 0;
    }
  }

  private async post(tenant: string, entries: AuditEntry[], timeoutMs: number): Promise<'done' | 'retry'> {
    try {
      const answer = await callUpstream(this.pools.user, this.secret, {
        method: 'POST',
        path: '/users/audit/batch',
        timeoutMs,
        body: { entries },
        context: contextWithoutUser(tenant, randomUUID(), 'system'),
      });
      if (answer.status < 300) return 'done';
      // An entry the service refuses must not cost the others of its batch theirs (a group commit
      // mixes many requests): the halves are sent apart, down to the entry refused.
      if ((answer.status === 400 || answer.status === 413) && entries.length > 1) {
        const half = Math.ceil(entries.length / 2);
        const outcomes = await Promise.all([
          this.post(tenant, entries.slice(0, half), timeoutMs),
          this.post(tenant, entries.slice(half), timeoutMs),
        ]);
        return outcomes.includes('retry') ? 'retry' : 'done';
      }
      // A refused batch would be refused again: logged with what identifies the calls, then let go.
      if (answer.status < 500) {
        this.log.error(
          { tenant, answer: answer.status, requests: entries.map((e) => e.request_id) },
          'audit batch refused',
        );
        return 'done';
      }
      this.log.warn({ tenant, answer: answer.status, entries: entries.length }, 'audit batch failed');
      return 'retry';
    } catch (error) {
      this.log.warn({ err: error, tenant, entries: entries.length }, 'audit batch not sent');
      return 'retry';
    }
  }

  /** On shutdown: no more waiting, batches in flight finish, then what is buffered is sent (one attempt). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.closing = true;
    await Promise.all([...this.commits.values()].map((c) => c.drained()));
    await this.flush(true);
  }
}
