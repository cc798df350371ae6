import { CLOSE_SECONDS, type Env } from '@portal/core';

/**
 * Seconds the gateway's close gets after the drain: app.close waits for the calls in flight, which
 * end within the upstream timeout (live streams are ended at once, live-routes.ts).
 */
export function gatewayCloseSeconds(env: Pick<Env, 'UPSTREAM_TIMEOUT_MS'>): number {
  return Math.max(CLOSE_SECONDS, Math.ceil(env.UPSTREAM_TIMEOUT_MS / 1000) + 2);
}

/** The longest a SIGTERM'd gateway lives: Kubernetes' terminationGracePeriodSeconds must be at least this. */
export function gatewayShutdownSeconds(env: Pick<Env, 'UPSTREAM_TIMEOUT_MS' | 'DRAIN_SECONDS'>): number {
  return env.DRAIN_SECONDS + gatewayCloseSeconds(env);
}
