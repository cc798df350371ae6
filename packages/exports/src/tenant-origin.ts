import { readTenantFile, TenantConfigError, type Env } from '@portal/core';

/**
 * The tenant's first domain, from its validated tenant file (TENANT_CONFIG_DIR):
 * a mailed link must open on the tenant's own host, where the gateway
 * resolves the tenant and the download page checks the key's tenant. Null
 * when the tenant has no file, or a file that does not validate (the gateway
 * does not serve that version either).
 */
export function tenantDomain(configDir: string, tenant: string): string | null {
  try {
    return readTenantFile(configDir, tenant)?.config.domains[0] ?? null;
  } catch (error) {
    if (error instanceof TenantConfigError) return null;
    throw error;
  }
}

/** `EXPORT_LINK_ORIGIN` with the tenant's domain, e.g. https://acme.example. */
export function tenantOrigin(
  env: Pick<Env, 'TENANT_CONFIG_DIR' | 'EXPORT_LINK_ORIGIN'>,
  tenant: string,
): string | null {
  const domain = tenantDomain(env.TENANT_CONFIG_DIR, tenant);
  return domain ? env.EXPORT_LINK_ORIGIN.replace('{domain}', domain) : null;
}
