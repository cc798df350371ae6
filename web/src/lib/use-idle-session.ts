import { useCallback, useEffect, useRef, useState } from 'react';
import { getCurrentTitle } from './page-title';
import { getLastRefresh } from './token-store';
import {
  ACTIVITY_DEBOUNCE_MS,
  blinkTitle,
  debounce,
  idlePhase,
  REFRESH_ON_ACTIVITY_AFTER_MS,
  type IdleConfig,
  type IdlePhase,
} from './idle-session';

const EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Tracks user activity (debounced 500 ms), refreshes the token on activity more
 * than 60 s after the last refresh, and reports the idle phase every second.
 * While warning, the tab title blinks '**WARNING**'.
 */
export function useIdleSession(cfg: IdleConfig, handlers: { onExpire: () => void; onRefresh: () => void }) {
  const lastActivity = useRef(0);
  const [phase, setPhase] = useState<IdlePhase>({ phase: 'active' });
  const phaseRef = useRef<IdlePhase>(phase);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  }, [handlers]);

  useEffect(() => {
    lastActivity.current = Date.now();
    const onActivity = debounce(() => {
      if (phaseRef.current.phase !== 'active') return; // the warning needs an explicit choice
      const now = Date.now();
      lastActivity.current = now;
      if (now - getLastRefresh() > REFRESH_ON_ACTIVITY_AFTER_MS) handlersRef.current.onRefresh();
    }, ACTIVITY_DEBOUNCE_MS);
    for (const e of EVENTS) window.addEventListener(e, onActivity, { passive: true });
    return () => {
      onActivity.cancel();
      for (const e of EVENTS) window.removeEventListener(e, onActivity);
    };
  }, []);

  useEffect(() => {
    let tick = 0;
    let expired = false;
    const id = setInterval(() => {
      const next = idlePhase(lastActivity.current, Date.now(), cfg);
      phaseRef.current = next;
      setPhase(next);
      if (next.phase === 'warning') document.title = blinkTitle(tick++, getCurrentTitle());
      else if (tick) {
        tick = 0;
        document.title = getCurrentTitle();
      }
      if (next.phase === 'expired' && !expired) {
        expired = true;
        handlersRef.current.onExpire();
      }
    }, 1000);
    return () => clearInterval(id);
  }, [cfg]);

  const extend = useCallback(() => {
    lastActivity.current = Date.now();
    phaseRef.current = { phase: 'active' };
    setPhase(phaseRef.current);
    document.title = getCurrentTitle();
    handlersRef.current.onRefresh();
  }, []);

  return { phase, extend };
}
