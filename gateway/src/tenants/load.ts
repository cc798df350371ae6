import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readTenantFiles, type TenantFileRead } from '@portal/core';
import { lookContrastProblems } from './contrast';

/** A loaded tenant: its validated file plus what the gateway derives from it. */
export interface Tenant extends TenantFileRead {
  /** Directory of its logo/favicon files. */
  assetDir: string;
}

const assetDirOf = (read: TenantFileRead) => join(dirname(read.file), 'assets', read.config.id);

/** What the gateway serves from a tenant's file: its logo, favicon and help videos exist, its colours read well. */
function assetProblems(read: TenantFileRead): string[] {
  const { config: tenant, file } = read;
  const assetDir = assetDirOf(read);
  const problems: string[] = [];
  for (const [field, look] of [
    ['branding', tenant.branding],
    ['variant.look', tenant.variant.look],
  ] as const) {
    for (const key of ['logo', 'favicon'] as const) {
      if (!existsSync(join(assetDir, look[key])))
        problems.push(`${file}: ${field}.${key}: file ${join(assetDir, look[key])} does not exist`);
    }
    // Text on the tenant's colours must be readable (WCAG AA 4.5:1): refused here, not found by users.
    for (const p of lookContrastProblems(tenant.id, field, look)) problems.push(`${file}: ${p}`);
  }
  tenant.help_topics.forEach((h, i) => {
    if (h.video && !existsSync(join(assetDir, h.video)))
      problems.push(`${file}: help_topics[${i}].video: file ${join(assetDir, h.video)} does not exist`);
  });
  return problems;
}

/**
 * Reads and validates every tenant file of a directory (readTenantFiles of
 * @portal/core) and the files the gateway serves for each: all or nothing,
 * with one message per problem naming the file, the field and what is wrong.
 */
export function loadTenants(dir: string): Tenant[] {
  return readTenantFiles(dir, assetProblems).map((read) => ({ ...read, assetDir: assetDirOf(read) }));
}
