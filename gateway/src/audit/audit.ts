import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { contextWithoutUser, type Logger } from '@portal/core';
import { callUpstream, type Pools } from '../upstreams/pools';
import { auditEntryOf, type AuditEntry } from './audit-entry';

interface AuditOptions {
  /** How often the buffer is sent (ms). */
  flushMs?: number;
  /** Entries per batch (the user service takes up to 500). */
  batchSize?: number;
  /** Entries kept while the user service is unreachable; beyond it the oldest are dropped (and counted in the log). */
  maxBuffered?: number;
  timeoutMs?: number;
}

/**
 * The audit trail of gateway calls (design §11, issue 19): every write of a
 * signed-in user and every impersonated call. Entries are made in onResponse
 * and buffered here; a timer sends them to the user service (which owns the
 * table) in batches per tenant, off the request path. A request never waits
 * for or fails because of the audit: when the user service is down the batch
 * stays buffered (bounded) and is retried with backoff; each entry carries its
 * own id, so a batch sent twice is stored once. Every gateway instance sends
 * its own buffer, so scaling out needs nothing shared.
 */
export class GatewayAudit {
  private buffer: Array<{ tenant: string; entry: AuditEntry }> = [];
  private readonly addresses = new WeakMap<FastifyRequest, string>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  private failures = 0;
  private retryAt = 0;
  private dropped = 0;
  private readonly flushMs: number;
  private readonly batchSize: number;
  private readonly maxBuffered: number;
  private readonly timeoutMs: number;

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
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /**
   * Called as a request arrives: the client address is read while the socket is there (a proxied call
   * answered on a closing connection has no socket left by onResponse).
   */
  begin(request: FastifyRequest): void {
    this.addresses.set(request, request.ip);
  }

  /** Called once per answered request; cheap, synchronous, never throws into the request. */
  observe(request: FastifyRequest, status: number): void {
    try {
      const tenant = request.tenant?.config.id;
      const entry = tenant ? auditEntryOf(request, status, this.addresses.get(request)) : null;
      if (!tenant || !entry) return;
      if (this.buffer.length >= this.maxBuffered) {
        this.buffer.shift();
        this.dropped++;
      }
      this.buffer.push({ tenant, entry });
    } catch (error) {
      this.log.error({ err: error }, 'audit entry not made');
    }
  }

  /** Entries waiting to be sent (health and tests). */
  get pending(): number {
    return this.buffer.length;
  }

  /** Sends what is buffered; concurrent calls share one run. */
  flush(force = false): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.buffer.length === 0 || (!force && Date.now() < this.retryAt)) return Promise.resolve();
    this.flushing = this.send().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
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
      const outcome = await this.post(tenant, batch);
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

  private async post(tenant: string, entries: AuditEntry[]): Promise<'done' | 'retry'> {
    try {
      const answer = await callUpstream(this.pools.user, this.secret, {
        method: 'POST',
        path: '/users/audit/batch',
        timeoutMs: this.timeoutMs,
        body: { entries },
        context: contextWithoutUser(tenant, randomUUID(), 'system'),
      });
      if (answer.status < 300) return 'done';
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

  /** On shutdown: stop the timer and send what is left (one attempt). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush(true);
  }
}
