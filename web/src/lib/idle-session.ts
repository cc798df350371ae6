/**
 * Idle session of spec 1 §4.3 and §2.7: after `idleMs` without activity a
 * warning counts down `countdownMs`, then the session ends. Activity is
 * debounced (500 ms) and does not dismiss an open warning: the user extends
 * it explicitly. Pure so it can be tested with a fake clock.
 */
export interface IdleConfig {
  idleMs: number;
  countdownMs: number;
}

export type IdlePhase =
  { phase: 'active' } | { phase: 'warning'; remainingMs: number } | { phase: 'expired' };

export const ACTIVITY_DEBOUNCE_MS = 500;
/** The token is silently refreshed on activity more than this long after the last refresh. */
export const REFRESH_ON_ACTIVITY_AFTER_MS = 60_000;

export function idlePhase(lastActivity: number, now: number, cfg: IdleConfig): IdlePhase {
  const idle = now - lastActivity;
  if (idle < cfg.idleMs) return { phase: 'active' };
  const remainingMs = cfg.idleMs + cfg.countdownMs - idle;
  return remainingMs > 0 ? { phase: 'warning', remainingMs } : { phase: 'expired' };
}

/** From the tenant's bootstrap.session: seconds idle before the warning, seconds of countdown. */
/**
 * From the tenant's bootstrap.session: idle_seconds is the whole idle timeout
 * (900 = 15 minutes) and warning_seconds the countdown before it ends (60 =
 * warning at 14 minutes).
 */
export function idleConfigFromSession(session: {
  idle_seconds: number;
  warning_seconds: number;
}): IdleConfig {
  const countdown = Math.max(1, Math.min(session.warning_seconds, session.idle_seconds - 1));
  return { idleMs: (session.idle_seconds - countdown) * 1000, countdownMs: countdown * 1000 };
}

export function formatCountdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Trailing debounce: calls fn once `wait` ms after the last call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number) {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    if (handle !== undefined) clearTimeout(handle);
    handle = setTimeout(() => {
      handle = undefined;
      fn(...args);
    }, wait);
  };
  debounced.cancel = () => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
  };
  return debounced;
}

/** The blinking tab title during the countdown. */
export const WARNING_TITLE = '**WARNING**';
export function blinkTitle(tick: number, title: string): string {
  return tick % 2 === 0 ? WARNING_TITLE : title;
}
