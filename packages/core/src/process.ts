import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { createCache, type Cache } from './cache';
import { openDatabase, type Db } from './db';
import type { Env } from './env';
import type { Drain } from './health';
import { resolveContextSecret } from './internal-context';
import { createLogger, type Logger } from './logger';
import type { ServiceDeps } from './service';

/** Opens what a service process needs once: logger, database, cache, context key. */
export async function openDeps(
  env: Env,
  name: string,
): Promise<ServiceDeps & { log: Logger; db: Db; cache: Cache }> {
  const log = createLogger(env, name);
  const db = await openDatabase(env, log);
  const cache = createCache(env, log);
  if (!(await cache.ready()))
    log.warn('Redis did not answer at start-up: serving without cache until it does');
  return { env, db, cache, log, contextSecret: resolveContextSecret(env) };
}

/** Seconds the closers get (app.close waits for in-flight requests) before the process exits anyway. */
export const CLOSE_SECONDS = 10;

export interface ShutdownOptions {
  /** Turned on at the signal: readiness answers 503 while the apps keep serving. */
  drains?: readonly Drain[];
  /**
   * How long they keep serving before closing (DRAIN_SECONDS): long enough for load balancers and
   * Kubernetes endpoints to see readiness fail and stop sending new requests here.
   */
  drainSeconds?: number;
  /** What the closers get after the drain; CLOSE_SECONDS unless longer calls may be in flight. */
  closeSeconds?: number;
}

async function closeAll(log: Logger, closers: Array<() => Promise<unknown>>) {
  for (const close of closers)
    await close().catch((error: unknown) => log.error({ err: error }, 'close failed'));
}

/**
 * A graceful stop: readiness turns 503 at once, the apps keep serving normally (new connections and
 * keep-alive requests) for `drainSeconds`, then the closers run in order (app.close stops listening
 * and waits for the requests in flight).
 */
export async function drainThenClose(
  log: Logger,
  closers: Array<() => Promise<unknown>>,
  { drains = [], drainSeconds = 0 }: ShutdownOptions = {},
): Promise<void> {
  for (const drain of drains) drain.start();
  if (drains.length && drainSeconds > 0) {
    log.info({ drainSeconds }, 'draining: not ready, still serving');
    await new Promise((resolve) => setTimeout(resolve, drainSeconds * 1000));
  }
  await closeAll(log, closers);
}

/**
 * On SIGTERM/SIGINT: drainThenClose, within a deadline (the drain plus closeSeconds) after which
 * close-with-grace exits anyway. After a crash (uncaught error) the closers run at once, no drain.
 */
export function closeOnSignals(
  log: Logger,
  closers: Array<() => Promise<unknown>>,
  options: ShutdownOptions = {},
) {
  const delay = ((options.drainSeconds ?? 0) + (options.closeSeconds ?? CLOSE_SECONDS)) * 1000;
  closeWithGrace({ delay }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    await drainThenClose(log, closers, signal ? options : {});
  });
}

export async function listen(app: FastifyInstance, port: number, host: string): Promise<string> {
  await app.listen({ port, host });
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${actual}`;
}
