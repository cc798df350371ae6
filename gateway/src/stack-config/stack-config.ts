import type { AdvancedFilterField, StackConfig, UserProfile } from '@portal/contracts';
import type { Tenant } from '../tenants/load';

/** The per-user stack configurations the gateway answers itself (spec 1 §3.4, spec 2 §2.2). */
export const STACK_CONFIG_NAMES = ['stack_config_be', 'slim', 'cases_advanced_filters'] as const;
export type StackConfigName = (typeof STACK_CONFIG_NAMES)[number];

export const stackConfigKey = (tenant: string, userId: number, version: string, name: string) =>
  `gw:cfg:${tenant}:${userId}:${version}:${name}`;
export const stackConfigUserPrefix = (tenant: string, userId: number) => `gw:cfg:${tenant}:${userId}:`;
export const stackConfigTenantPrefix = (tenant: string) => `gw:cfg:${tenant}:`;

/** Tenant defaults, then the merchant's overrides, then the user's. */
function stackConfigFor(tenant: Tenant, profile: UserProfile): StackConfig {
  const sc = tenant.config.stack_config;
  const d = sc.defaults;
  return {
    max_representment_page_count: d.max_representment_page_count,
    max_representment_upload_size: d.max_representment_upload_size,
    show_cb_auto_accept_btn: d.show_cb_auto_accept_btn,
    show_cb_case_filter_btn: d.show_cb_case_filter_btn,
    show_cb_primary_cases_expiring_x_days: d.show_cb_primary_cases_expiring_x_days,
    edit_disabled_status_groups: d.edit_disabled_status_groups,
    edit_verdict_only: d.edit_verdict_only,
    ...sc.merchants?.[String(profile.merchant.id)],
    ...sc.users?.[String(profile.id)],
  } as StackConfig;
}

/** The advanced-filter fields the user's roles may see. */
function advancedFiltersFor(tenant: Tenant, profile: UserProfile): AdvancedFilterField[] {
  return tenant.config.advanced_filters.filter(
    (f) => !f.roles?.length || f.roles.some((r) => profile.roles.includes(r)),
  ) as AdvancedFilterField[];
}

/** The answer body of each name: `{attr: ...}` as the product reads it (cases_advanced_filters: attr.filters). */
export function stackConfigAnswer(name: StackConfigName, tenant: Tenant, profile: UserProfile): unknown {
  if (name === 'cases_advanced_filters') return { attr: { filters: advancedFiltersFor(tenant, profile) } };
  const full = stackConfigFor(tenant, profile);
  if (name === 'slim') {
    return {
      attr: {
        max_representment_page_count: full.max_representment_page_count,
        max_representment_upload_size: full.max_representment_upload_size,
      },
    };
  }
  return { attr: full };
}
