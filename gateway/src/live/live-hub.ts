import { liveChannel, type LiveMessage, type PublishedLiveMessage } from '@portal/contracts';
import type { Cache, Logger } from '@portal/core';
import { mayReceive, parseMessage, toBrowser, type LiveViewer } from './live-scope';

/** One open stream: who listens, and how a message reaches them. */
export interface LiveClient {
  tenant: string;
  viewer: LiveViewer;
  send(message: LiveMessage): void;
  end(reason: string): void;
}

/**
 * The fan-out of one gateway process: one subscription per tenant channel on
 * the process's one subscriber connection (the cache adapter's), taken when
 * the tenant's first stream opens, and every message handed in process to
 * the open streams allowed to see it. Every replica subscribes, so any
 * replica can serve any user.
 */
export class LiveHub {
  private readonly clients = new Map<string, Set<LiveClient>>();
  private readonly subscriptions = new Map<string, Promise<void>>();

  constructor(
    private readonly cache: Cache,
    private readonly log: Logger,
    /** How long a new stream waits for its tenant's subscription before it opens anyway. */
    private readonly subscribeWaitMs = 2000,
  ) {}

  async add(client: LiveClient): Promise<void> {
    let set = this.clients.get(client.tenant);
    if (!set) this.clients.set(client.tenant, (set = new Set()));
    set.add(client);
    await this.subscribe(client.tenant);
  }

  remove(client: LiveClient): void {
    const set = this.clients.get(client.tenant);
    set?.delete(client);
    if (set && !set.size) this.clients.delete(client.tenant);
  }

  get size(): number {
    let n = 0;
    for (const set of this.clients.values()) n += set.size;
    return n;
  }

  /** Ends every stream (shutdown, Redis lost): the browsers reconnect, or poll meanwhile. */
  endAll(reason: string): void {
    for (const set of [...this.clients.values()]) for (const client of [...set]) client.end(reason);
  }

  private subscribe(tenant: string): Promise<void> {
    let pending = this.subscriptions.get(tenant);
    if (!pending) {
      pending = this.cache
        .subscribe(liveChannel(tenant), (raw) => this.deliver(tenant, raw))
        .catch((err: unknown) => {
          this.subscriptions.delete(tenant);
          this.log.warn({ err, tenant }, 'live channel subscription failed');
        });
      this.subscriptions.set(tenant, pending);
    }
    // A subscriber still reconnecting subscribes when it is back; the stream need not wait for that.
    return Promise.race([pending, new Promise<void>((r) => setTimeout(r, this.subscribeWaitMs).unref())]);
  }

  private deliver(tenant: string, raw: string): void {
    const set = this.clients.get(tenant);
    if (!set?.size) return;
    const message: PublishedLiveMessage | undefined = parseMessage(raw);
    if (!message) {
      this.log.warn({ raw: raw.slice(0, 200) }, 'invalid live message ignored');
      return;
    }
    let browser: LiveMessage | undefined;
    for (const client of set) {
      if (!mayReceive(client.viewer, message)) continue;
      browser ??= toBrowser(message);
      client.send(browser);
    }
  }
}
