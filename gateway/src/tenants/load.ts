import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { parse } from 'yaml';
import { lookContrastProblems } from './contrast';
import { TenantFile } from './schema';

/** A loaded tenant: its validated file plus what the gateway derives from it. */
export interface Tenant {
  config: TenantFile;
  file: string;
  /** Directory of its logo/favicon files. */
  assetDir: string;
  /** Changes whenever the file changes: part of cache keys built from the config. */
  version: string;
}

export class TenantConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid tenant configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'TenantConfigError';
  }
}

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Field path as a reader writes it: `branding.colors.primary`, `dashboard.tiles[2]`. */
function fieldName(path: string): string {
  return (
    path
      .replace(/^\//, '')
      .split('/')
      .filter(Boolean)
      .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i ? `.${part}` : part))
      .join('') || '(root)'
  );
}

function validate(raw: unknown, file: string): { tenant?: TenantFile; problems: string[] } {
  const problems: string[] = [];
  if (raw === null || typeof raw !== 'object')
    return { problems: [`${file}: (root): must be a mapping of fields`] };
  for (const error of Value.Errors(TenantFile, raw)) {
    // Unions report every branch; one line per field is what a reader needs.
    const line = `${file}: ${fieldName(error.path)}: ${error.message}`;
    if (!problems.includes(line)) problems.push(line);
    if (problems.length >= 20) break;
  }
  return problems.length ? { problems } : { tenant: raw as TenantFile, problems };
}

/**
 * Reads and validates every tenant file of a directory: all or nothing, with
 * one message per problem naming the file, the field and what is wrong.
 */
export function loadTenants(dir: string): Tenant[] {
  if (!existsSync(dir))
    throw new TenantConfigError([`${dir}: tenant configuration directory does not exist`]);
  const files = readdirSync(dir)
    .filter((f) => EXTENSIONS.has(extname(f)))
    .sort();
  const problems: string[] = [];
  const tenants: Tenant[] = [];
  for (const name of files) {
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    let raw: unknown;
    try {
      raw = extname(name) === '.json' ? JSON.parse(text) : parse(text);
    } catch (error) {
      problems.push(
        `${file}: (syntax): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
      continue;
    }
    const { tenant, problems: found } = validate(raw, file);
    problems.push(...found);
    if (!tenant) continue;
    const stem = basename(name, extname(name));
    if (tenant.id !== stem)
      problems.push(`${file}: id: must equal the file name ('${stem}'), got '${tenant.id}'`);
    const assetDir = join(dir, 'assets', tenant.id);
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
    if (tenant.session.warning_seconds >= tenant.session.idle_seconds) {
      problems.push(`${file}: session.warning_seconds: must be less than session.idle_seconds`);
    }
    const aliases = new Set<string>();
    tenant.advanced_filters.forEach((f, i) => {
      if (aliases.has(f.alias))
        problems.push(`${file}: advanced_filters[${i}].alias: duplicate alias '${f.alias}'`);
      aliases.add(f.alias);
      if (f.type === 'select' && !f.endpoint && !f.default_options?.length) {
        problems.push(`${file}: advanced_filters[${i}]: a select needs an endpoint or default_options`);
      }
    });
    tenants.push({
      config: tenant,
      file,
      assetDir,
      version: createHash('sha256').update(text).digest('hex').slice(0, 12),
    });
  }
  if (!files.length) problems.push(`${dir}: no tenant files (*.yaml, *.yml, *.json)`);
  // Cross-file rules: a host belongs to one tenant, at most one default.
  const hosts = new Map<string, string>();
  for (const t of tenants) {
    for (const d of t.config.domains) {
      const other = hosts.get(d);
      if (other) problems.push(`${t.file}: domains: '${d}' is already used by tenant '${other}'`);
      hosts.set(d, t.config.id);
    }
  }
  const defaults = tenants.filter((t) => t.config.default);
  if (defaults.length > 1)
    problems.push(
      `${defaults[1]!.file}: default: only one tenant may be the default (also '${defaults[0]!.config.id}')`,
    );
  if (problems.length) throw new TenantConfigError(problems);
  return tenants;
}
