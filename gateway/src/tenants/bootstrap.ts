import { TENANT_ASSETS_PREFIX, type Look, type TenantBootstrap } from '@portal/contracts';
import type { LookConfig } from '@portal/core';
import type { Tenant } from './load';

function look(tenantId: string, l: LookConfig): Look {
  const asset = (file: string) => `${TENANT_ASSETS_PREFIX}${tenantId}/${file}`;
  return {
    logo_url: asset(l.logo),
    favicon_url: asset(l.favicon),
    colors: { ...l.colors },
    fonts: { ...l.fonts },
  };
}

/** The public projection of a tenant's configuration: no rate limits, timeouts of upstreams or overrides. */
export function tenantBootstrap(tenant: Tenant): TenantBootstrap {
  const c = tenant.config;
  return {
    id: c.id,
    site_name: c.site_name,
    support_email: c.support_email,
    look: look(c.id, c.branding),
    variant: { name: c.variant.name, menu_marker: c.variant.menu_marker, look: look(c.id, c.variant.look) },
    labels: { ...c.labels },
    menu_variant: c.menu_variant,
    dashboard: { tiles: [...c.dashboard.tiles], pie_chart: c.dashboard.pie_chart },
    flags: { ...c.flags },
    session: { ...c.session },
    service_levels: [...c.service_levels],
    credential_creation_disabled_service_levels: [...c.credential_creation_disabled_service_levels],
    help_topics: c.help_topics.map(({ video, ...h }) =>
      video ? { ...h, video_url: `/tenant-assets/${c.id}/${video}` } : { ...h },
    ),
    alerts_embed_host: c.alerts_embed_host,
    client_kind: c.client_kind,
    report_charts: [...c.report_charts],
    ...(c.saml
      ? { saml: { password_login: c.saml.password_login, logout_url: c.saml.logout_url ?? null } }
      : {}),
  };
}
