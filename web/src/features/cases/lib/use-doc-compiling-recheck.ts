import { useEffect, useRef } from 'react';
import { useLiveEvent, useLivePollInterval } from '../../../lib/live-events';

const RECHECK_MS = 30_000;
/** A bulk compile ends many cases at once: one refresh for the burst. */
const COALESCE_MS = 500;

/**
 * While a DocCompiling case is on the page the list refreshes when a case
 * leaves DocCompiling (live updates), so the Document cell turns to the
 * compiled file without a reload. While the live stream is down it falls back
 * to the spec's recheck every 30 s (spec 2 §2.1).
 */
export function useDocCompilingRecheck(compiling: boolean, refresh: () => void): void {
  const pollMs = useLivePollInterval(RECHECK_MS);
  const latest = useRef({ compiling, refresh });
  useEffect(() => {
    latest.current = { compiling, refresh };
  });
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);

  useLiveEvent({ kind: 'event', type: 'CASE_STATUS_CHANGED' }, (m) => {
    if (!latest.current.compiling || pending.current !== undefined) return;
    if (m.kind === 'job' || (m.kind === 'event' && m.previous_status !== 'DocCompiling')) return;
    pending.current = setTimeout(() => {
      pending.current = undefined;
      latest.current.refresh();
    }, COALESCE_MS);
  });

  useEffect(() => {
    if (!compiling || pollMs === false) return;
    const t = setInterval(refresh, pollMs);
    return () => clearInterval(t);
  }, [compiling, refresh, pollMs]);
}
