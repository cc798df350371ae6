import { readTenantFile } from '@portal/core';

/**
 * Tenant feature flags (design §3, config/tenants/<id>.yaml `flags`) as the
 * case service reads them: from the same files the gateway validated at
 * start-up (TENANT_CONFIG_DIR), with the same validation (readTenantFile of
 * @portal/core, which re-reads a file when it changes). The gateway refuses
 * POST /api/cm/cases/:id/ce without HAS_REMEDY too; the service checks again
 * because it also answers `properties.can_remedy` and may be called directly
 * with a signed context.
 */
/** A file is looked at again at most this often: case lists ask for every row. */
const RECHECK_MS = 5000;
const byTenant = new Map<string, { checkedAt: number; flags: Record<string, boolean> }>();
let configDir: string | null = null;

/** Set once when the case routes register (env.TENANT_CONFIG_DIR). */
export function setTenantConfigDir(dir: string): void {
  if (dir !== configDir) byTenant.clear();
  configDir = dir;
}

function flagsOf(tenant: string): Record<string, boolean> {
  const recent = byTenant.get(tenant);
  if (recent && Date.now() - recent.checkedAt < RECHECK_MS) return recent.flags;
  const flags = (configDir && readTenantFile(configDir, tenant)?.config.flags) || {};
  byTenant.set(tenant, { checkedAt: Date.now(), flags });
  return flags;
}

/** True when the tenant's flag is exactly `true` (an absent or invalid file: off). */
export function tenantFlag(tenant: string, flag: string): boolean {
  try {
    return flagsOf(tenant)[flag] === true;
  } catch {
    return false;
  }
}
