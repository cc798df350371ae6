import { Type, type Static } from '@sinclair/typebox';

/**
 * What GET /api/tenant answers and index.html inlines (design §3): the
 * tenant's public face for the web app. Never secrets or upstream URLs.
 * The full tenant configuration schema (config/tenants/*) lives in the
 * gateway; this is its public projection.
 */
export const Look = Type.Object({
  logo_url: Type.String(),
  favicon_url: Type.String(),
  colors: Type.Object({
    primary: Type.String(),
    primary_contrast: Type.String(),
    secondary: Type.String(),
    accent: Type.String(),
    sidebar_bg: Type.String(),
    sidebar_fg: Type.String(),
    topbar_bg: Type.String(),
    topbar_fg: Type.String(),
    background: Type.String(),
  }),
  fonts: Type.Object({ heading: Type.String(), body: Type.String() }),
});
export type Look = Static<typeof Look>;

export const DashboardTile = Type.Union([
  Type.Literal('chargebacks_mtd'),
  Type.Literal('fraud_pct'),
  Type.Literal('expiring_72h'),
  Type.Literal('mids'),
  Type.Literal('users'),
]);
export type DashboardTile = Static<typeof DashboardTile>;

export const TenantBootstrap = Type.Object(
  {
    id: Type.String(),
    site_name: Type.String(),
    support_email: Type.String(),
    look: Look,
    /** Partner-branded look for users with theme_variant > 1, and its marker on the case-management menu entry. */
    variant: Type.Object({ look: Look, menu_marker: Type.String(), name: Type.String() }),
    labels: Type.Record(Type.String(), Type.String()),
    menu_variant: Type.Union([Type.Literal('classic'), Type.Literal('data-grid')]),
    dashboard: Type.Object({
      tiles: Type.Array(DashboardTile),
      pie_chart: Type.Union([Type.Literal('card_type'), Type.Literal('status')]),
    }),
    /** Client feature flags (DATAGRID, SEARCH_BAR, MERCHANT_HIERARCHY, ALERTS_IFRAME, HAS_REMEDY, ...). */
    flags: Type.Record(Type.String(), Type.Boolean()),
    session: Type.Object({ idle_seconds: Type.Integer(), warning_seconds: Type.Integer() }),
    service_levels: Type.Array(Type.Integer()),
    credential_creation_disabled_service_levels: Type.Array(Type.Integer()),
    help_topics: Type.Array(Type.Object({ title: Type.String(), body: Type.String() })),
    alerts_embed_host: Type.Union([Type.String(), Type.Null()]),
    client_kind: Type.Union([Type.Literal('standard'), Type.Literal('payment_processor'), Type.Literal('bank'), Type.Literal('central')]),
  },
  { $id: 'TenantBootstrap' },
);
export type TenantBootstrap = Static<typeof TenantBootstrap>;
