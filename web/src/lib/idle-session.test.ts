import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  blinkTitle,
  debounce,
  formatCountdown,
  idleConfigFromSession,
  idlePhase,
  WARNING_TITLE,
} from './idle-session';

describe('idle session (spec 1 §4.3, §2.7)', () => {
  const cfg = idleConfigFromSession({ idle_seconds: 900, warning_seconds: 60 });

  it('warns at 14 minutes and ends at 15 by default', () => {
    expect(cfg).toEqual({ idleMs: 840_000, countdownMs: 60_000 });
    expect(idlePhase(0, 839_999, cfg)).toEqual({ phase: 'active' });
    expect(idlePhase(0, 840_000, cfg)).toEqual({ phase: 'warning', remainingMs: 60_000 });
    expect(idlePhase(0, 899_000, cfg)).toEqual({ phase: 'warning', remainingMs: 1_000 });
    expect(idlePhase(0, 900_000, cfg)).toEqual({ phase: 'expired' });
  });
  it('formats the countdown', () => {
    expect(formatCountdown(60_000)).toBe('1:00');
    expect(formatCountdown(9_001)).toBe('0:10');
    expect(formatCountdown(-5)).toBe('0:00');
  });
  it('blinks **WARNING** in the title', () => {
    expect(blinkTitle(0, 'Dashboard - Acme')).toBe(WARNING_TITLE);
    expect(blinkTitle(1, 'Dashboard - Acme')).toBe('Dashboard - Acme');
  });

  describe('activity debounce', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());
    it('fires once 500 ms after the last event', () => {
      const fn = vi.fn();
      const d = debounce(fn, 500);
      d();
      vi.advanceTimersByTime(300);
      d();
      vi.advanceTimersByTime(499);
      expect(fn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(1);
    });
  });
});
