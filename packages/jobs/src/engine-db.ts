import type PgBoss from 'pg-boss';
import type { Logger, Queryable } from '@portal/core';
import { adapterFor } from './boss';

/** Errors of the engine's own calls (a set, not a mark on the error: an error may be frozen). */
const engineErrors = new WeakSet<object>();

/**
 * The worker's pg-boss adapter. pg-boss does not await the completion or
 * failure it records after each job (manager.watch's onFetch), so when
 * Postgres is away at that moment (a restart, or the pool closed at
 * shutdown) the rejection has no handler, and Node ends the process. Such a
 * loss is harmless: pg-boss's expiry retries the job, and its status record
 * (readForRun) keeps a finished job from running again. So the errors of
 * this adapter are tagged, and a tagged rejection nobody handled is logged
 * instead (see `keepEngineRejections`).
 *
 * It also counts the calls in flight, so that a stopping worker can wait for
 * a fetch that was under way, and the job it brings, before the pool closes.
 */
export class EngineDb implements PgBoss.Db {
  readonly #pending = new Set<Promise<unknown>>();
  readonly #inner: PgBoss.Db;
  constructor(target: Queryable) {
    this.#inner = adapterFor(target);
  }

  get inFlight(): number {
    return this.#pending.size;
  }

  executeSql = async (text: string, values?: unknown[]) => {
    const call = this.#inner.executeSql(text, values ?? []);
    this.#pending.add(call);
    try {
      return await call;
    } catch (error) {
      if (error && typeof error === 'object') engineErrors.add(error);
      throw error;
    } finally {
      this.#pending.delete(call);
    }
  };
}

let engineLog: Logger | undefined;

function onUnhandledRejection(reason: unknown): void {
  if (reason && typeof reason === 'object' && engineErrors.has(reason)) {
    engineLog?.warn(
      { err: reason },
      'job engine could not record a job outcome; the job is retried when its attempt expires',
    );
    return;
  }
  // Another listener (a test runner) reports the rest; alone, keep Node's default: the process ends.
  if (process.listenerCount('unhandledRejection') === 1) throw reason;
}

/** Installs, once per process, the handler of the job engine's unawaited rejections (see EngineDb). */
export function keepEngineRejections(log: Logger): void {
  engineLog = log;
  if (!process.listeners('unhandledRejection').includes(onUnhandledRejection)) {
    process.on('unhandledRejection', onUnhandledRejection);
  }
}
