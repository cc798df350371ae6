import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * Tenant feature flags (design §3, config/tenants/<id>.yaml `flags`) as the
 * case service reads them: from the same files the gateway validated at
 * start-up (TENANT_CONFIG_DIR), re-read when a file changes. The gateway
 * refuses POST /api/cm/cases/:id/ce without HAS_REMEDY too; the service checks
 * again because it also answers `properties.can_remedy` and may be called
 * directly with a signed context.
 */
const TENANT = /^[a-z][a-z0-9-]{1,31}$/;
/** A file is looked at again at most this often: case lists ask for every row. */
const RECHECK_MS = 5000;
const cache = new Map<string, { mtimeMs: number; flags: Record<string, unknown> }>();
const byTenant = new Map<string, { checkedAt: number; flags: Record<string, unknown> }>();
let configDir: string | null = null;

/** Set once when the case routes register (env.TENANT_CONFIG_DIR). */
export function setTenantConfigDir(dir: string): void {
  if (dir !== configDir) byTenant.clear();
  configDir = dir;
}

function flagsOf(tenant: string): Record<string, unknown> {
  const recent = byTenant.get(tenant);
  if (recent && Date.now() - recent.checkedAt < RECHECK_MS) return recent.flags;
  const flags = readFlags(tenant);
  byTenant.set(tenant, { checkedAt: Date.now(), flags });
  return flags;
}

function readFlags(tenant: string): Record<string, unknown> {
  if (!configDir || !TENANT.test(tenant)) return {};
  for (const ext of ['.yaml', '.yml', '.json']) {
    const file = join(configDir, tenant + ext);
    if (!existsSync(file)) continue;
    const { mtimeMs } = statSync(file);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit.flags;
    const text = readFileSync(file, 'utf8');
    const parsed = (ext === '.json' ? JSON.parse(text) : parse(text)) as { flags?: Record<string, unknown> };
    const flags = parsed?.flags ?? {};
    cache.set(file, { mtimeMs, flags });
    return flags;
  }
  return {};
}

/** True when the tenant's flag is exactly `true` (an absent or unreadable file: off). */
export function tenantFlag(tenant: string, flag: string): boolean {
  try {
    return flagsOf(tenant)[flag] === true;
  } catch {
    return false;
  }
}
