import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { parse } from 'yaml';
import { TenantFile } from './schema';

/**
 * The one reader of the tenant files (config/tenants/<id>.yaml, .yml or
 * .json; the directory is env TENANT_CONFIG_DIR): the gateway reads them all
 * (readTenantFiles, at start-up and on every change), the services read one
 * tenant's (readTenantFile). Both validate against schema.ts and the rules
 * below, with one message per problem naming the file, the field and what is
 * wrong.
 */

/** A tenant file that validated. */
export interface TenantFileRead {
  config: TenantFile;
  file: string;
  /** Changes whenever the file changes: part of cache keys built from the config. */
  version: string;
}

export class TenantConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid tenant configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'TenantConfigError';
  }
}

/** In the order a tenant's file is looked for. */
const EXTENSIONS = ['.yaml', '.yml', '.json'];
const TENANT_ID = new RegExp(TenantFile.properties.id.pattern!);

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

function schemaProblems(raw: unknown, file: string): string[] {
  if (raw === null || typeof raw !== 'object') return [`${file}: (root): must be a mapping of fields`];
  const problems: string[] = [];
  for (const error of Value.Errors(TenantFile, raw)) {
    // Unions report every branch; one line per field is what a reader needs.
    const line = `${file}: ${fieldName(error.path)}: ${error.message}`;
    if (!problems.includes(line)) problems.push(line);
    if (problems.length >= 20) break;
  }
  return problems;
}

/** The rules a schema cannot say: the id names the file, the warning fits the session, filters are sound. */
function ruleProblems(tenant: TenantFile, file: string): string[] {
  const problems: string[] = [];
  const stem = basename(file, extname(file));
  if (tenant.id !== stem)
    problems.push(`${file}: id: must equal the file name ('${stem}'), got '${tenant.id}'`);
  if (tenant.session.warning_seconds >= tenant.session.idle_seconds)
    problems.push(`${file}: session.warning_seconds: must be less than session.idle_seconds`);
  const aliases = new Set<string>();
  tenant.advanced_filters.forEach((f, i) => {
    if (aliases.has(f.alias))
      problems.push(`${file}: advanced_filters[${i}].alias: duplicate alias '${f.alias}'`);
    aliases.add(f.alias);
    if (f.type === 'select' && !f.endpoint && !f.default_options?.length)
      problems.push(`${file}: advanced_filters[${i}]: a select needs an endpoint or default_options`);
  });
  const feeLines = new Set<string>();
  tenant.fees?.forEach((f, i) => {
    const line = `${f.card_network}/${f.cycle}`;
    if (feeLines.has(line))
      problems.push(
        `${file}: fees[${i}]: duplicate line for card_network '${f.card_network}', cycle '${f.cycle}'`,
      );
    feeLines.add(line);
  });
  return problems;
}

/** One file: its content when the schema passes (with the problems of the other rules, if any), else the problems. */
function checkTenantFile(file: string): { read?: TenantFileRead; problems: string[] } {
  const text = readFileSync(file, 'utf8');
  let raw: unknown;
  try {
    raw = extname(file) === '.json' ? JSON.parse(text) : parse(text);
  } catch (error) {
    return {
      problems: [
        `${file}: (syntax): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      ],
    };
  }
  const problems = schemaProblems(raw, file);
  if (problems.length) return { problems };
  const config = raw as TenantFile;
  return {
    read: { config, file, version: createHash('sha256').update(text).digest('hex').slice(0, 12) },
    problems: ruleProblems(config, file),
  };
}

/**
 * Reads and validates every tenant file of a directory: all or nothing, a
 * TenantConfigError with every problem otherwise. `check` adds the caller's
 * own rules for each file that passed the schema (the gateway: its asset
 * files and colours). Across the files, a host belongs to one tenant and at
 * most one tenant is the default.
 */
export function readTenantFiles(dir: string, check?: (read: TenantFileRead) => string[]): TenantFileRead[] {
  if (!existsSync(dir))
    throw new TenantConfigError([`${dir}: tenant configuration directory does not exist`]);
  const files = readdirSync(dir)
    .filter((f) => EXTENSIONS.includes(extname(f)))
    .sort();
  const problems: string[] = [];
  const reads: TenantFileRead[] = [];
  for (const name of files) {
    const { read, problems: found } = checkTenantFile(join(dir, name));
    problems.push(...found);
    if (!read) continue;
    if (check) problems.push(...check(read));
    reads.push(read);
  }
  if (!files.length) problems.push(`${dir}: no tenant files (*.yaml, *.yml, *.json)`);
  const hosts = new Map<string, string>();
  for (const r of reads) {
    for (const d of r.config.domains) {
      const other = hosts.get(d);
      if (other) problems.push(`${r.file}: domains: '${d}' is already used by tenant '${other}'`);
      hosts.set(d, r.config.id);
    }
  }
  const defaults = reads.filter((r) => r.config.default);
  if (defaults.length > 1)
    problems.push(
      `${defaults[1]!.file}: default: only one tenant may be the default (also '${defaults[0]!.config.id}')`,
    );
  if (problems.length) throw new TenantConfigError(problems);
  return reads;
}

/** By file: the last read, kept until the file's modification time changes. */
const cache = new Map<string, { mtimeMs: number; read?: TenantFileRead; error?: TenantConfigError }>();

/**
 * One tenant's file (`<dir>/<tenant>.yaml`, `.yml` or `.json`, the first
 * found), validated like readTenantFiles does (without the rules across
 * files), and read again only when it changes. Null when the tenant has no
 * file; a TenantConfigError when it does not validate: a caller never uses
 * half of a file.
 */
export function readTenantFile(dir: string, tenant: string): TenantFileRead | null {
  if (!TENANT_ID.test(tenant)) return null;
  for (const ext of EXTENSIONS) {
    const file = join(dir, tenant + ext);
    if (!existsSync(file)) continue;
    const { mtimeMs } = statSync(file);
    let hit = cache.get(file);
    if (!hit || hit.mtimeMs !== mtimeMs) {
      const { read, problems } = checkTenantFile(file);
      hit = problems.length ? { mtimeMs, error: new TenantConfigError(problems) } : { mtimeMs, read };
      cache.set(file, hit);
    }
    if (hit.error) throw hit.error;
    return hit.read!;
  }
  return null;
}
