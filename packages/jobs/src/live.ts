import { liveChannel, type LiveJobMessage, type PublishedLiveMessage } from '@portal/contracts';
import type { Cache, Logger } from '@portal/core';

/**
 * The publishing side of live updates (issue 21): job state changes and
 * committed domain events go to the tenant's pub/sub channel, which every
 * gateway replica streams to the browsers allowed to see them. Publishing is
 * fire-and-forget: a Redis that is down or slow never fails, delays or
 * retries a job (the browsers fall back to polling while their stream is down).
 */
export interface LivePublisher {
  publish(tenant: string, message: PublishedLiveMessage): void;
}

/** Publishes through the process's cache adapter (Redis, or the in-process bus of the embedded default). */
export function livePublisher(bus: Pick<Cache, 'publish'>, log: Logger): LivePublisher {
  let lastWarn = 0;
  const warn = (err: unknown) => {
    const now = Date.now();
    if (now - lastWarn < 5000) return;
    lastWarn = now;
    log.warn({ err }, 'live update not published');
  };
  return {
    publish(tenant, message) {
      try {
        bus.publish(liveChannel(tenant), JSON.stringify(message)).catch(warn);
      } catch (error) {
        warn(error);
      }
    },
  };
}

/** A job status row as the status writes return it. */
export interface JobStatusChange {
  id: string;
  kind: string;
  tenant: string;
  created_by: number | string | null;
  state: LiveJobMessage['state'];
  progress: number;
  message: string | null;
}

/** The columns the status writes return for publishing. */
export const LIVE_JOB_COLUMNS = 'id, kind, tenant, created_by, state, progress, message';

export function publishJobChange(live: LivePublisher | undefined, row: JobStatusChange | undefined) {
  if (!live || !row) return;
  live.publish(row.tenant, {
    kind: 'job',
    id: row.id,
    job_kind: row.kind,
    state: row.state,
    progress: Number(row.progress),
    message: row.message,
    created_by: row.created_by === null ? null : Number(row.created_by),
  });
}
