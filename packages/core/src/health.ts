import type { HealthResponse } from '@portal/contracts';
import type { Cache } from './cache';
import type { Db } from './db';

/**
 * Liveness and readiness (design §4, §12): the parts every process's probes share. Liveness never
 * looks at a dependency; readiness checks are bounded and their answer reused for a moment.
 */
export type Check = 'up' | 'down' | 'off';

/** The longest a readiness check waits: probes time out after a few seconds, an answer must come first. */
export const READINESS_TIMEOUT_MS = 1500;
/** How long one round of readiness checks answers every probe: a probe storm costs one round a second. */
export const READINESS_CACHE_MS = 1000;

/** Whether a process still takes new traffic: its readiness answers 503 from the moment it drains. */
export class Drain {
  private since: number | undefined;
  get draining(): boolean {
    return this.since !== undefined;
  }
  start(): void {
    this.since ??= Date.now();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by buildServiceApp and buildGateway; started on SIGTERM (process.ts drainThenClose). */
    drain: Drain;
  }
}

/** `work`'s value, or `fallback` when it fails or has not settled within `ms`. */
export function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(resolve, ms, fallback);
  });
  return Promise.race([work.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

/** Postgres answers `select 1` in time (a pool waiting for a connection counts as down). */
export function postgresCheck(db: Pick<Db, 'query'>, ms = READINESS_TIMEOUT_MS): Promise<Check> {
  return within(
    db.query('select 1').then((): Check => 'up'),
    ms,
    'down',
  );
}

/** Redis answers PING in time; 'off' with the in-process cache (no REDIS_URL). */
export function redisCheck(cache: Pick<Cache, 'kind' | 'ping'>, ms = READINESS_TIMEOUT_MS): Promise<Check> {
  if (cache.kind === 'memory') return Promise.resolve('off');
  return within(
    cache.ping().then((ok): Check => (ok ? 'up' : 'down')),
    ms,
    'down',
  );
}

/**
 * `check` run at most once per `ttlMs`: callers meanwhile get the last answer, and callers while it
 * runs share that run (a failed run is not kept).
 */
export function reusedFor<T>(ttlMs: number, check: () => Promise<T>, now = Date.now): () => Promise<T> {
  let running: Promise<T> | undefined;
  let last: { at: number; value: T } | undefined;
  return () => {
    if (running) return running;
    if (last && now() - last.at < ttlMs) return Promise.resolve(last.value);
    running = check()
      .then((value) => {
        last = { at: now(), value };
        return value;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}

export interface ProbeAnswer {
  statusCode: 200 | 503;
  body: HealthResponse;
}

/** Liveness: the event loop got here, nothing else is asked. */
export function liveAnswer(service: string): ProbeAnswer {
  return { statusCode: 200, body: { status: 'ok', service, checks: {} } };
}

/**
 * Readiness from the checks: 503 naming in `down` each `needed` check that is down, or 'draining';
 * a check that is down but not needed makes it 'degraded', still 200.
 */
export function readinessAnswer(
  service: string,
  checks: Record<string, Check>,
  needed: readonly string[],
  draining: boolean,
): ProbeAnswer {
  const down = [...(draining ? ['draining'] : []), ...needed.filter((name) => checks[name] === 'down')];
  const degraded = Object.values(checks).includes('down');
  return {
    statusCode: down.length ? 503 : 200,
    body: {
      status: down.length ? 'down' : degraded ? 'degraded' : 'ok',
      service,
      checks,
      ...(draining ? { draining: true } : {}),
      ...(down.length ? { down } : {}),
    },
  };
}
