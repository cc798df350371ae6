import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { createCache, type Cache } from './cache';
import { openDatabase, type Db } from './db';
import type { Env } from './env';
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

/** Closes apps then shared resources on SIGINT/SIGTERM, with a deadline. */
export function closeOnSignals(log: Logger, closers: Array<() => Promise<unknown>>) {
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    for (const close of closers)
      await close().catch((error: unknown) => log.error({ err: error }, 'close failed'));
  });
}

export async function listen(app: FastifyInstance, port: number, host: string): Promise<string> {
  await app.listen({ port, host });
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${actual}`;
}
