/** How an entry ended for the request waiting on it: stored, or handed to the fallback (and why). */
export type CommitOutcome = 'stored' | 'failed' | 'timeout';

export interface GroupCommitOptions<T> {
  /** Sends one batch; true once it is stored (or refused for good). Must not reject. */
  send: (batch: T[]) => Promise<boolean>;
  /** Entries per batch at most. */
  maxBatch: number;
  /** Takes the entries not known stored: their batch failed, or their waiter gave up. */
  fallback: (items: T[], outcome: Exclude<CommitOutcome, 'stored'>) => void;
}

interface Waiter<T> {
  item: T;
  settled: boolean;
  timer: NodeJS.Timeout | undefined;
  resolve: (outcome: CommitOutcome) => void;
}

/**
 * Group commit: one batch in flight at a time; what arrives meanwhile waits and
 * goes out together in the next one. A waiter resumes when its batch is stored,
 * at once when it fails, and after `waitMs` at the latest; in the last two cases
 * its entry goes to the fallback. An entry whose waiter gave up while its batch
 * was in flight may be sent twice (by the batch and by the fallback): the
 * receiver must store by id.
 */
export class GroupCommit<T> {
  private queue: Array<Waiter<T>> = [];
  private running = false;
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly o: GroupCommitOptions<T>) {}

  add(item: T, waitMs: number): Promise<CommitOutcome> {
    return new Promise((resolve) => {
      const waiter: Waiter<T> = { item, settled: false, timer: undefined, resolve };
      waiter.timer = setTimeout(() => this.settle([waiter], 'timeout'), waitMs);
      this.queue.push(waiter);
      if (!this.running) {
        this.running = true;
        this.idle = this.run();
      }
    });
  }

  /** Waiting entries (not in flight). */
  get queued(): number {
    return this.queue.filter((w) => !w.settled).length;
  }

  /** Resolves once nothing is in flight or queued. */
  drained(): Promise<void> {
    return this.idle;
  }

  private async run(): Promise<void> {
    // Entries made in the same turn of the event loop (answers of one burst) share the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      this.queue = this.queue.filter((w) => !w.settled);
      if (this.queue.length === 0) break;
      const batch = this.queue.splice(0, this.o.maxBatch);
      const stored = await this.o.send(batch.map((w) => w.item)).catch(() => false);
      this.settle(batch, stored ? 'stored' : 'failed');
    }
    this.running = false;
  }

  private settle(waiters: Array<Waiter<T>>, outcome: CommitOutcome) {
    const open = waiters.filter((w) => !w.settled);
    if (open.length === 0) return;
    for (const w of open) {
      w.settled = true;
      clearTimeout(w.timer);
    }
    // Into the fallback before any waiter resumes: no request is answered with its entry in neither place.
    if (outcome !== 'stored')
      this.o.fallback(
        open.map((w) => w.item),
        outcome,
      );
    for (const w of open) w.resolve(outcome);
  }
}
