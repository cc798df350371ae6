import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Env } from '@portal/core';

const TENANT = /^[a-z][a-z0-9-]{1,31}$/; // the tenant id of packages/core/src/tenant-config/schema.ts

/**
 * The tenant's first domain, from the files the gateway validated at start-up
 * (TENANT_CONFIG_DIR): a mailed link must open on the tenant's own host, where
 * the gateway resolves the tenant and the download page checks the key's
 * tenant. Null when the tenant has no file.
 */
export function tenantDomain(configDir: string, tenant: string): string | null {
  if (!TENANT.test(tenant)) return null;
  for (const ext of ['.yaml', '.yml', '.json']) {
    const file = join(configDir, tenant + ext);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const parsed = (ext === '.json' ? JSON.parse(text) : parse(text)) as { domains?: unknown };
    const first = Array.isArray(parsed?.domains) ? parsed.domains[0] : undefined;
    return typeof first === 'string' && /^[a-z0-9.-]+$/.test(first) ? first : null;
  }
  return null;
}

/** `EXPORT_LINK_ORIGIN` with the tenant's domain, e.g. https://acme.example. */
export function tenantOrigin(
  env: Pick<Env, 'TENANT_CONFIG_DIR' | 'EXPORT_LINK_ORIGIN'>,
  tenant: string,
): string | null {
  const domain = tenantDomain(env.TENANT_CONFIG_DIR, tenant);
  return domain ? env.EXPORT_LINK_ORIGIN.replace('{domain}', domain) : null;
}
