/**
 * The page's CSP style nonce. The gateway's Content-Security-Policy has no
 * 'unsafe-inline' for styles: every <style> element needs the per-response
 * nonce, which index.html carries as `<meta property="csp-nonce" nonce="…">`.
 * Chromium hides nonce attributes once the policy applies (getAttribute
 * answers ''), so it is read from the `nonce` property. Undefined under the
 * Vite dev server (no CSP there).
 */
let cached: string | null | undefined;

export function cspNonce(): string | undefined {
  if (cached === undefined) {
    const meta =
      typeof document === 'undefined'
        ? null
        : document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
    cached = meta?.nonce || meta?.getAttribute('nonce') || null;
  }
  return cached ?? undefined;
}

/**
 * ApexCharts reads global defaults from `window.Apex`; `chart.nonce` goes on
 * the <style id="apexcharts-css"> element it injects on the first chart.
 * (AG Grid takes the nonce as the `styleNonce` grid option, emotion on its cache.)
 */
export function applyChartNonce(nonce: string | undefined): void {
  if (!nonce || typeof window === 'undefined') return;
  const w = window as unknown as { Apex?: { chart?: Record<string, unknown> } };
  const apex = (w.Apex ??= {});
  apex.chart = { ...apex.chart, nonce };
}
