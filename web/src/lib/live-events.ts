import {
  IMPERSONATE_HEADER,
  LIVE_PATH,
  type LiveEventMessage,
  type LiveJobMessage,
  type LiveMessage,
  type WebhookEventType,
} from '@portal/contracts';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useAuth } from './auth/auth-context';
import { refreshSession } from './auth/session';
import { getImpersonation } from './impersonation';
import { getAccessToken } from './token-store';

/**
 * Live updates (issue 21): ONE Server-Sent Events stream per tab from the
 * gateway (`GET /api/live`), shared by every hook. It is read with fetch()
 * and a streamed body, not EventSource, because the access token lives in
 * memory and goes in the Authorization header (with the impersonation header).
 * A 401 refreshes the token through the app's auth client and reconnects;
 * anything else reconnects with backoff (1 s doubling to 30 s, jittered).
 *
 * Screens keep their polling only while the stream is not open:
 *   const live = useLiveStatus();                        'open' | 'connecting' | 'down'
 *   useLiveEvent({ kind: 'job', job_kind: 'case.updater' }, () => refetch());
 *   useQuery({ ..., refetchInterval: live === 'open' ? false : 1500 });
 * or in one line: useLiveInvalidate(filter, queryKey) + useLivePollInterval(ms).
 *
 * Messages are hints to refetch, not data. After the stream comes back from a
 * drop, every handler gets `{ kind: 'resync' }` once (messages may have been
 * missed meanwhile); filters always let it through.
 */
export type LiveStatus = 'open' | 'connecting' | 'down';
export type { LiveEventMessage, LiveJobMessage, LiveMessage };
export interface LiveResync {
  kind: 'resync';
}
export type LiveDelivery = LiveMessage | LiveResync;

const oneOrMany = <T>(want: T | readonly T[] | undefined, value: T | undefined) =>
  want === undefined || (Array.isArray(want) ? want.includes(value) : want === value);

/** Which messages a hook wants; every given field must match. */
export type LiveFilter =
  | { kind: 'job'; job_kind?: string | readonly string[]; id?: string }
  | {
      kind: 'event';
      type?: WebhookEventType | readonly WebhookEventType[];
      merchant_id?: number;
      case_id?: number;
      alert_id?: number;
    }
  | ((message: LiveMessage) => boolean);

export function matches(filter: LiveFilter, message: LiveDelivery): boolean {
  if (message.kind === 'resync') return true;
  if (typeof filter === 'function') return filter(message);
  if (filter.kind === 'job')
    return (
      message.kind === 'job' &&
      oneOrMany(filter.job_kind, message.job_kind) &&
      oneOrMany(filter.id, message.id)
    );
  return (
    message.kind === 'event' &&
    oneOrMany(filter.type, message.type) &&
    oneOrMany(filter.merchant_id, message.merchant_id) &&
    oneOrMany(filter.case_id, message.case_id) &&
    oneOrMany(filter.alert_id, message.alert_id)
  );
}

/** One parsed Server-Sent Event. */
interface SseEvent {
  event: string;
  data: string;
}

/** Splits a growing text buffer into complete events; returns the rest. */
export function parseSse(buffer: string, emit: (e: SseEvent) => void): string {
  const normalized = buffer.replace(/\r\n?/g, '\n');
  let rest = normalized;
  let cut: number;
  while ((cut = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) emit({ event, data: data.join('\n') });
  }
  return rest;
}

const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
/** No byte for this long (the server pings every 15 s): the connection is dead, reconnect. */
const SILENCE_MS = 45_000;

/** The tab's one stream. Framework-free; the hooks below subscribe to it. */
export class LiveConnection {
  private status: LiveStatus = 'down';
  private readonly statusListeners = new Set<() => void>();
  private readonly handlers = new Set<(m: LiveDelivery) => void>();
  private controller: AbortController | undefined;
  private running = false;
  private wasOpen = false;
  private attempt = 0;

  constructor(
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
    private readonly refresh: () => Promise<boolean> = refreshSession,
  ) {}

  getStatus = (): LiveStatus => this.status;

  onStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  subscribe(handler: (m: LiveDelivery) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    void this.loop();
  }

  stop(): void {
    this.running = false;
    this.wasOpen = false;
    this.controller?.abort();
    this.setStatus('down');
  }

  private setStatus(status: LiveStatus) {
    if (status === this.status) return;
    this.status = status;
    for (const l of [...this.statusListeners]) l();
  }

  private deliver(message: LiveDelivery) {
    for (const h of [...this.handlers]) {
      try {
        h(message);
      } catch (error) {
        console.error('live update handler failed', error);
      }
    }
  }

  private async loop() {
    while (this.running) {
      if (this.status !== 'open') this.setStatus(this.attempt > 2 ? 'down' : 'connecting');
      let outcome: 'ended' | 'unauthorized' | 'refused' | 'failed';
      try {
        outcome = await this.connectOnce();
      } catch {
        outcome = 'failed';
      }
      if (!this.running) return;
      if (outcome === 'unauthorized') {
        // A fresh access token through the app's auth client; without one the app signs out by itself.
        const ok = await this.refresh().catch(() => false);
        if (ok && this.running) continue;
      }
      if (outcome === 'ended') {
        // The server ended a healthy stream (token expired, scope changed): reconnect at once.
        this.attempt = 0;
        continue;
      }
      this.setStatus(this.attempt >= 2 || outcome === 'refused' ? 'down' : 'connecting');
      const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
      this.attempt++;
      await new Promise((r) => setTimeout(r, base / 2 + Math.random() * (base / 2)));
    }
  }

  /** One stream from request to end. */
  private async connectOnce(): Promise<'ended' | 'unauthorized' | 'refused' | 'failed'> {
    const token = getAccessToken();
    if (!token) return 'unauthorized';
    const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${token}` };
    const imp = getImpersonation();
    if (imp) headers[IMPERSONATE_HEADER] = imp.id;
    const controller = new AbortController();
    this.controller = controller;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(), SILENCE_MS);
    };
    try {
      alive();
      const res = await this.fetchImpl(LIVE_PATH, {
        headers,
        credentials: 'same-origin',
        cache: 'no-store',
        signal: controller.signal,
      });
      if (res.status === 401) return 'unauthorized';
      // 429 (too many tabs), 503 (Redis down), 403 (forced password update): poll, retry later.
      if (!res.ok || !res.body) return res.status >= 400 && res.status < 500 ? 'refused' : 'failed';
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let ended = false;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        alive();
        buffer = parseSse(buffer + decoder.decode(value, { stream: true }), (e) => {
          if (e.event === 'ready') {
            this.attempt = 0;
            this.setStatus('open');
            if (this.wasOpen) this.deliver({ kind: 'resync' });
            this.wasOpen = true;
          } else if (e.event === 'end') {
            ended = true;
          } else if (e.event === 'message') {
            try {
              this.deliver(JSON.parse(e.data) as LiveMessage);
            } catch {
              // Not ours: ignored.
            }
          }
        });
      }
      return ended ? 'ended' : 'failed';
    } finally {
      clearTimeout(silence);
      controller.abort();
    }
  }
}

/** The tab's connection (one per JavaScript realm, i.e. per tab). */
export const liveConnection = new LiveConnection();

/** 'open' while the stream is up; else screens poll. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(liveConnection.onStatus, liveConnection.getStatus, () => 'down' as const);
}

/** `ms` while the stream is not open, else false: the react-query refetchInterval of a live screen. */
export function useLivePollInterval(ms: number): number | false {
  return useLiveStatus() === 'open' ? false : ms;
}

/**
 * Calls `handler` for each message matching `filter` (and once with
 * `{kind: 'resync'}` after a reconnect). The filter may be a new object each
 * render; a function filter is read at delivery time.
 */
export function useLiveEvent(filter: LiveFilter, handler: (message: LiveDelivery) => void): void {
  const latest = useRef({ filter, handler });
  useEffect(() => {
    latest.current = { filter, handler };
  });
  useEffect(
    () =>
      liveConnection.subscribe((m) => {
        if (matches(latest.current.filter, m)) latest.current.handler(m);
      }),
    [],
  );
}

/**
 * Runs `refresh` (the latest one given) after a matching message, at most
 * once per `coalesceMs`: a bulk change sends hundreds of events.
 */
export function useLiveRefresh(filter: LiveFilter, refresh: () => void, coalesceMs = 500): void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveEvent(filter, () => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, coalesceMs);
  });
}

/**
 * Refetches the queries under `queryKey` on each matching message, at most
 * once per `coalesceMs` (a bulk change sends hundreds of events) and never
 * cancelling a refetch already running.
 */
export function useLiveInvalidate(filter: LiveFilter, queryKey: QueryKey, coalesceMs = 500): void {
  const queryClient = useQueryClient();
  useLiveRefresh(
    filter,
    () => void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false }),
    coalesceMs,
  );
}

/**
 * Runs the tab's stream while a user is signed in (mounted once, in
 * app/provider.tsx); a new effective user (Login As, Back as) gets a new
 * stream. The status is also on <html data-live> for diagnostics and tests.
 */
export function LiveUpdates(): null {
  const { profile } = useAuth();
  const who =
    profile && !profile.must_update_password ? `${profile.id}:${profile.impersonated_by?.id ?? ''}` : null;
  useEffect(() => {
    if (!who) return;
    liveConnection.start();
    return () => liveConnection.stop();
  }, [who]);
  const status = useLiveStatus();
  useEffect(() => {
    document.documentElement.dataset.live = status;
  }, [status]);
  return null;
}
