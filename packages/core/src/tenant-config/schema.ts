import { Type, type Static } from '@sinclair/typebox';
import {
  DashboardTile,
  MoneyFeeConfig,
  ReportingCurrencyConfig,
  SamlTenantConfig,
  WinOddsTenantConfig,
} from '@portal/contracts';

/**
 * The schema of config/tenants/<id>.yaml (design §3), read and validated by
 * read.ts beside this file: by the gateway at start-up and on every change,
 * by the services when they read a tenant's file. GET /api/tenant and
 * index.html carry its public projection (TenantBootstrap in
 * @portal/contracts), never upstream URLs.
 */
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{3,8}$', description: 'CSS hex colour' });
/** A file name under config/tenants/assets/<tenant>/, served at /tenant-assets/<tenant>/<file>. */
const AssetFile = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*\\.(svg|png|ico|jpg|jpeg|webp)$' });
/** A help topic's video (issue 19): a file beside the logo, served like it, played by the page's <video>. */
const VideoFile = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*\\.(webm|mp4)$' });

export const LookConfig = Type.Object(
  {
    logo: AssetFile,
    favicon: AssetFile,
    colors: Type.Object(
      {
        primary: Color,
        primary_contrast: Color,
        secondary: Color,
        accent: Color,
        sidebar_bg: Color,
        sidebar_fg: Color,
        topbar_bg: Color,
        topbar_fg: Color,
        background: Color,
      },
      { additionalProperties: false },
    ),
    fonts: Type.Object(
      { heading: Type.String({ minLength: 1 }), body: Type.String({ minLength: 1 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type LookConfig = Static<typeof LookConfig>;

const StackConfigValues = Type.Object(
  {
    max_representment_page_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    max_representment_upload_size: Type.Optional(Type.Integer({ minimum: 1024, description: 'bytes' })),
    show_cb_auto_accept_btn: Type.Optional(Type.Boolean()),
    show_cb_case_filter_btn: Type.Optional(Type.Boolean()),
    show_cb_primary_cases_expiring_x_days: Type.Optional(Type.Boolean()),
    /** Status group ids (1 New, 2 In Progress, 3 Completed, 4 Expired, 5 Do Not Represent) whose cases cannot be edited. */
    edit_disabled_status_groups: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 5 }), { uniqueItems: true }),
    ),
    /** The edit button opens the verdict-only form. */
    edit_verdict_only: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type StackConfigValues = Static<typeof StackConfigValues>;

const FilterType = Type.Union(
  ['select', 'text', 'userDefinedMultiSelect', 'amount', 'date', 'due-date'].map((t) => Type.Literal(t)),
);
/** A case advanced-filter field (spec 2 §2.2). */
const AdvancedFilter = Type.Object(
  {
    alias: Type.String({ minLength: 1 }),
    alias_override: Type.Optional(Type.String()),
    label: Type.String({ minLength: 1 }),
    initial_value: Type.Optional(
      Type.Union([
        Type.String(),
        Type.Number(),
        Type.Array(Type.Union([Type.String(), Type.Number()])),
        Type.Null(),
      ]),
    ),
    type: FilterType,
    /** A select's options, paged and searched: a lookup (/cm/gen/*) or /users/users (the assignable users). */
    endpoint: Type.Optional(Type.String({ pattern: '^/' })),
    default_options: Type.Optional(
      Type.Array(Type.Object({ value: Type.Union([Type.String(), Type.Number()]), label: Type.String() })),
    ),
    is_multiple_choice: Type.Optional(Type.Boolean()),
    is_clear_date_icon: Type.Optional(Type.Boolean()),
    is_enabled: Type.Boolean(),
    /** Roles that see the field; empty or missing: everyone. */
    roles: Type.Optional(Type.Array(Type.String())),
    initial_compare_value: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const TenantFile = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9-]{1,31}$' }),
    /** Answers for any host no tenant names (at most one tenant). */
    default: Type.Optional(Type.Boolean()),
    domains: Type.Array(Type.String({ pattern: '^[a-z0-9.-]+$' }), { minItems: 1 }),
    site_name: Type.String({ minLength: 1, maxLength: 80 }),
    support_email: Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$' }),
    client_kind: Type.Union([
      Type.Literal('standard'),
      Type.Literal('payment_processor'),
      Type.Literal('bank'),
      Type.Literal('central'),
    ]),
    branding: LookConfig,
    variant: Type.Object(
      { name: Type.String({ minLength: 1 }), menu_marker: Type.String({ minLength: 1 }), look: LookConfig },
      { additionalProperties: false },
    ),
    labels: Type.Record(Type.String(), Type.String()),
    menu_variant: Type.Union([Type.Literal('classic'), Type.Literal('data-grid')]),
    dashboard: Type.Object(
      {
        tiles: Type.Array(DashboardTile, { minItems: 1 }),
        pie_chart: Type.Union([Type.Literal('card_type'), Type.Literal('status')]),
      },
      { additionalProperties: false },
    ),
    /** Upper-case names; a dot groups a screen's flags (e.g. CASE_QC_REVIEW.DO_NOT_REPRESENT, spec 2 §2.4). */
    flags: Type.Record(Type.String({ pattern: '^[A-Z][A-Z0-9_]*(\\.[A-Z][A-Z0-9_]*)*$' }), Type.Boolean()),
    session: Type.Object(
      {
        /** Inactivity before sign-out. */
        idle_seconds: Type.Integer({ minimum: 60, maximum: 86400 }),
        /** Length of the warning countdown before the end (shown at idle - warning). */
        warning_seconds: Type.Integer({ minimum: 10, maximum: 3600 }),
      },
      { additionalProperties: false },
    ),
    service_levels: Type.Array(Type.Integer({ minimum: 1 })),
    credential_creation_disabled_service_levels: Type.Array(Type.Integer({ minimum: 1 })),
    help_topics: Type.Array(
      Type.Object(
        { title: Type.String(), body: Type.String(), video: Type.Optional(VideoFile) },
        { additionalProperties: false },
      ),
    ),
    report_charts: Type.Array(Type.String({ minLength: 1 })),
    alerts_embed_host: Type.Union([Type.String({ pattern: '^[a-z0-9.-]+(:[0-9]+)?$' }), Type.Null()]),
    stack_config: Type.Object(
      {
        defaults: Type.Required(StackConfigValues),
        /** Overrides by merchant id, then by user id (user wins). */
        merchants: Type.Optional(Type.Record(Type.String({ pattern: '^[0-9]+$' }), StackConfigValues)),
        users: Type.Optional(Type.Record(Type.String({ pattern: '^[0-9]+$' }), StackConfigValues)),
      },
      { additionalProperties: false },
    ),
    advanced_filters: Type.Array(AdvancedFilter),
    rate_limits: Type.Object(
      {
        user_per_minute: Type.Integer({ minimum: 1 }),
        auth_ip_per_minute: Type.Integer({ minimum: 1 }),
        auth_username_per_minute: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
    /** Per-tenant upstream answer timeout; the env's UPSTREAM_TIMEOUT_MS otherwise. */
    upstream_timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120000 })),
    /** SAML 2.0 sign-in (issue 16): the block and its fields are documented in packages/contracts/src/saml.ts. */
    saml: Type.Optional(SamlTenantConfig),
    /** Costs of fighting a case for the expected value (issue 33): documented in packages/contracts/src/win-odds.ts. */
    win_odds: Type.Optional(WinOddsTenantConfig),
    /** The money ledger's currency (issue 33): default USD. Rates to it are loaded by CSV (README 'Money ledger'). */
    reporting_currency: Type.Optional(ReportingCurrencyConfig),
    /** Dispute fees per card network and cycle, in the reporting currency (MoneyFeeConfig in @portal/contracts). */
    fees: Type.Optional(Type.Array(MoneyFeeConfig)),
  },
  { additionalProperties: false },
);
export type TenantFile = Static<typeof TenantFile>;
