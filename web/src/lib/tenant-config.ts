import type { Look, TenantBootstrap } from '@portal/contracts';
import { createContext, useContext } from 'react';

/** The brand used when the tenant names none (spec 2.2: a default brand name). */
export const DEFAULT_SITE_NAME = 'Chargeback Portal';

const DEFAULT_LOOK: Look = {
  logo_url: '',
  favicon_url: '',
  colors: {
    primary: '#1f4e8c',
    primary_contrast: '#ffffff',
    secondary: '#4a5568',
    accent: '#d69e2e',
    sidebar_bg: '#1a202c',
    sidebar_fg: '#e2e8f0',
    topbar_bg: '#ffffff',
    topbar_fg: '#1a202c',
    background: '#f7fafc',
  },
  fonts: { heading: 'system-ui, sans-serif', body: 'system-ui, sans-serif' },
};

/** Used only when neither the inlined block nor GET /api/tenant answers (so the app can still show an error). */
export const FALLBACK_BOOTSTRAP = {
  id: 'unknown',
  site_name: DEFAULT_SITE_NAME,
  support_email: 'support@example.com',
  look: DEFAULT_LOOK,
  variant: { look: DEFAULT_LOOK, menu_marker: '', name: '' },
  labels: {},
  menu_variant: 'classic',
  dashboard: { tiles: ['chargebacks_mtd', 'fraud_pct', 'expiring_72h', 'mids'], pie_chart: 'card_type' },
  flags: {},
  session: { idle_seconds: 15 * 60, warning_seconds: 60 },
  service_levels: [1, 3, 5],
  credential_creation_disabled_service_levels: [],
  help_topics: [],
  alerts_embed_host: null,
  client_kind: 'standard',
  report_charts: [],
} as TenantBootstrap;

/** The id of the data block the gateway inlines into index.html. */
export const BOOTSTRAP_ELEMENT_ID = 'portal-bootstrap';

/** Reads the inlined tenant config; in vite dev (no block) asks GET /api/tenant. */
export async function loadTenantBootstrap(
  doc: Document = document,
  fetchImpl: typeof fetch = fetch,
): Promise<TenantBootstrap> {
  const el = doc.getElementById(BOOTSTRAP_ELEMENT_ID);
  if (el?.textContent?.trim()) {
    try {
      return withDefaults(JSON.parse(el.textContent) as Partial<TenantBootstrap>);
    } catch {
      // fall through to the API
    }
  }
  try {
    const res = await fetchImpl('/api/tenant', { headers: { accept: 'application/json' } });
    if (res.ok) return withDefaults((await res.json()) as Partial<TenantBootstrap>);
  } catch {
    // offline: the fallback keeps the sign-in screen usable
  }
  return FALLBACK_BOOTSTRAP;
}

function withDefaults(b: Partial<TenantBootstrap>): TenantBootstrap {
  return {
    ...FALLBACK_BOOTSTRAP,
    ...b,
    look: {
      ...DEFAULT_LOOK,
      ...b.look,
      colors: { ...DEFAULT_LOOK.colors, ...b.look?.colors },
      fonts: { ...DEFAULT_LOOK.fonts, ...b.look?.fonts },
    },
    dashboard: { ...FALLBACK_BOOTSTRAP.dashboard, ...b.dashboard },
    session: { ...FALLBACK_BOOTSTRAP.session, ...b.session },
    site_name: b.site_name || DEFAULT_SITE_NAME,
  } as TenantBootstrap;
}

/** A label from the tenant config (e.g. MID, alias), else the given default. */
export function label(tenant: TenantBootstrap, key: string, fallback: string): string {
  return tenant.labels[key] ?? fallback;
}

export const TenantContext = createContext<TenantBootstrap>(FALLBACK_BOOTSTRAP);
export function useTenant(): TenantBootstrap {
  return useContext(TenantContext);
}
