import type { WebhookEventType } from './webhooks';

/**
 * Live updates (issue 21): small messages the worker publishes on Redis
 * pub/sub, one channel per tenant, and every gateway replica streams to the
 * browsers allowed to see them (`GET /api/live`, Server-Sent Events). They are
 * hints to refetch, never the data itself: a screen reloads what changed
 * through its usual call, which applies the usual rules.
 */

/** The channel of a tenant (REDIS_KEY_PREFIX is added by the cache adapter). */
export const LIVE_CHANNEL_PREFIX = 'live:';
export const liveChannel = (tenant: string) => `${LIVE_CHANNEL_PREFIX}${tenant}`;

/** The gateway's stream route. */
export const LIVE_PATH = '/api/live';

export type LiveJobState = 'queued' | 'running' | 'done' | 'failed';

/** A background job changed state or progress (streamed to its creator and to the tenant's provider staff). */
export interface LiveJobMessage {
  kind: 'job';
  /** The job id (the job status record's UUID). */
  id: string;
  /** The job kind, e.g. `case.bulk-close`, `case.onboarding-finalize`, `case.updater`, `docs.representment-compile`. */
  job_kind: string;
  state: LiveJobState;
  progress: number;
  message: string | null;
  created_by: number | null;
}

/** A domain event (design §11) after its change committed (streamed to users whose scope holds the merchant). */
export interface LiveEventMessage {
  kind: 'event';
  type: WebhookEventType;
  merchant_id: number;
  case_id?: number;
  alert_id?: number;
  ert_id?: number;
  status?: string;
  previous_status?: string;
}

/** What a browser receives. */
export type LiveMessage = LiveJobMessage | LiveEventMessage;

/**
 * What is published: an event also carries what the gateway filters on and
 * strips before streaming (`merchant_path`: the merchant's ancestors down to
 * itself; the case's or alert's MID, for users limited to some MIDs).
 */
export interface PublishedLiveEvent extends LiveEventMessage {
  merchant_path: number[];
  mid_id?: number;
  mid?: string;
}
export type PublishedLiveMessage = LiveJobMessage | PublishedLiveEvent;

/** Most live streams one signed-in user may hold at once (all tabs, all gateway replicas). */
export const LIVE_MAX_CONNECTIONS_PER_USER = 5;
export const LIVE_TOO_MANY_CONNECTIONS =
  'Too many live update connections for this user (at most 5). Close another tab of the portal and try again.';
