import { Type, type Static } from '@sinclair/typebox';
import { SamlBootstrap } from './saml';

/**
 * What GET /api/tenant answers and index.html inlines (design §3): the
 * tenant's public face for the web app. Never secrets or upstream URLs.
 * The full tenant configuration schema (config/tenants/*) lives in
 * packages/core/src/tenant-config; this is its public projection.
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
  // Net recovered this month against last month (issue 33).
  Type.Literal('recovered'),
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
    /** video_url: the topic's video, a same-origin /tenant-assets/ path (issue 19). */
    help_topics: Type.Array(
      Type.Object({ title: Type.String(), body: Type.String(), video_url: Type.Optional(Type.String()) }),
    ),
    alerts_embed_host: Type.Union([Type.String(), Type.Null()]),
    client_kind: Type.Union([
      Type.Literal('standard'),
      Type.Literal('payment_processor'),
      Type.Literal('bank'),
      Type.Literal('central'),
    ]),
    /** Report page chart layout: chart keys in display order (spec 3 Reports). Added by the gateway. */
    report_charts: Type.Array(Type.String()),
    /** Present when the tenant signs in through SAML (its `saml` block, public part only). */
    saml: Type.Optional(SamlBootstrap),
  },
  { $id: 'TenantBootstrap' },
);
export type TenantBootstrap = Static<typeof TenantBootstrap>;

/** Per-user stack configuration (spec 1 §3.4): GET /api/config/cfg/stack_config_be answers `{attr: StackConfig}`. */
export const StackConfig = Type.Object({
  max_representment_page_count: Type.Integer(),
  /** Bytes. */
  max_representment_upload_size: Type.Integer(),
  show_cb_auto_accept_btn: Type.Boolean(),
  show_cb_case_filter_btn: Type.Boolean(),
  show_cb_primary_cases_expiring_x_days: Type.Boolean(),
  /** Status group ids (1 New .. 5 Do Not Represent) whose cases cannot be edited (spec 2 §4). */
  edit_disabled_status_groups: Type.Array(Type.Integer()),
  /** The edit button opens the verdict-only form (spec 2 §5). */
  edit_verdict_only: Type.Boolean(),
});
export type StackConfig = Static<typeof StackConfig>;

/** A case advanced-filter field (spec 2 §2.2): GET /api/config/cfg/cases_advanced_filters answers `{attr: {filters}}`. */
export const AdvancedFilterField = Type.Object({
  alias: Type.String(),
  alias_override: Type.Optional(Type.String()),
  label: Type.String(),
  initial_value: Type.Optional(Type.Unknown()),
  type: Type.Union(
    ['select', 'text', 'userDefinedMultiSelect', 'amount', 'date', 'due-date'].map((t) => Type.Literal(t)),
  ),
  /** Where a select's options come from, paged and searched: a lookup (/cm/gen/*) or /users/users (the assignable users). */
  endpoint: Type.Optional(Type.String()),
  default_options: Type.Optional(
    Type.Array(Type.Object({ value: Type.Union([Type.String(), Type.Number()]), label: Type.String() })),
  ),
  is_multiple_choice: Type.Optional(Type.Boolean()),
  is_clear_date_icon: Type.Optional(Type.Boolean()),
  is_enabled: Type.Boolean(),
  roles: Type.Optional(Type.Array(Type.String())),
  initial_compare_value: Type.Optional(Type.String()),
});
export type AdvancedFilterField = Static<typeof AdvancedFilterField>;

/** The element of index.html carrying the bootstrap JSON (a data block, not executed). */
export const BOOTSTRAP_ELEMENT_ID = 'portal-bootstrap';
/** Where the gateway serves a tenant's logo and favicon files. */
export const TENANT_ASSETS_PREFIX = '/tenant-assets/';
