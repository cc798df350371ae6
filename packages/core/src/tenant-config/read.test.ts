import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTenantFile, readTenantFiles, TenantConfigError } from './read';

const SHIPPED = resolve(import.meta.dirname, '../../../../config/tenants');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the shipped tenant files, with acme.yaml's text edited. */
function withAcme(edit: (yaml: string) => string = (y) => y): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tenant-config-'));
  dirs.push(dir);
  cpSync(SHIPPED, dir, { recursive: true });
  const file = join(dir, 'acme.yaml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return { dir, file };
}

function problemsOf(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    if (error instanceof TenantConfigError) return error.problems;
    throw error;
  }
  throw new Error('the file validated');
}

describe('readTenantFile', () => {
  it('reads and validates one tenant file', () => {
    const read = readTenantFile(SHIPPED, 'acme')!;
    expect(read.file).toBe(join(SHIPPED, 'acme.yaml'));
    expect(read.config.id).toBe('acme');
    expect(read.config.menu_variant).toBe('classic');
    expect(read.config.stack_config.defaults.max_representment_upload_size).toBeGreaterThan(0);
    expect(read.version).toMatch(/^[0-9a-f]{12}$/);
  });

  it('is null for a tenant without a file or a name that is no tenant id', () => {
    expect(readTenantFile(SHIPPED, 'nobody')).toBeNull();
    expect(readTenantFile(SHIPPED, '../config')).toBeNull();
  });

  it('refuses an invalid file naming the file, the field and the problem', () => {
    const { dir, file } = withAcme(
      (y) => y.replace('menu_variant: classic', 'menu_variant: sideways') + 'colour_scheme: dark\n',
    );
    const problems = problemsOf(() => readTenantFile(dir, 'acme'));
    expect(problems).toContain(`${file}: colour_scheme: Unexpected property`);
    expect(problems.some((p) => p.startsWith(`${file}: menu_variant: `))).toBe(true);
    expect(() => readTenantFile(dir, 'acme')).toThrow(/^Invalid tenant configuration:\n {2}- /);
  });

  it('names a syntax error and a file that is not a mapping', () => {
    const { dir, file } = withAcme((y) => y + 'flags: [unclosed\n');
    expect(problemsOf(() => readTenantFile(dir, 'acme'))).toEqual([
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\(syntax\\): `)),
    ]);
    writeFileSync(file, 'just a sentence\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(problemsOf(() => readTenantFile(dir, 'acme'))).toEqual([
      `${file}: (root): must be a mapping of fields`,
    ]);
  });

  it('reads the file again when it changes', () => {
    const { dir, file } = withAcme();
    expect(readTenantFile(dir, 'acme')!.config.site_name).not.toBe('Acme Changed');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^site_name: .*$/m, 'site_name: Acme Changed'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(readTenantFile(dir, 'acme')!.config.site_name).toBe('Acme Changed');
  });
});

describe('readTenantFiles', () => {
  it('reads every tenant file of a directory', () => {
    expect(readTenantFiles(SHIPPED).map((r) => r.config.id)).toEqual(['acme', 'northbank']);
  });

  it('refuses the whole directory with every problem, the rules across files and the caller’s own', () => {
    const { dir, file } = withAcme((y) =>
      y
        .replace(/^id: acme$/m, 'id: other')
        .replace(/^domains: \[(.*)\]$/m, 'domains: [$1, northbank.localhost]'),
    );
    const problems = problemsOf(() => readTenantFiles(dir, (r) => [`${r.file}: checked`]));
    expect(problems).toEqual([
      `${file}: id: must equal the file name ('acme'), got 'other'`,
      `${file}: checked`,
      `${join(dir, 'northbank.yaml')}: checked`,
      `${join(dir, 'northbank.yaml')}: domains: 'northbank.localhost' is already used by tenant 'other'`,
    ]);
    expect(problemsOf(() => readTenantFiles(join(dir, 'missing')))).toEqual([
      `${join(dir, 'missing')}: tenant configuration directory does not exist`,
    ]);
    expect(problemsOf(() => readTenantFiles(join(dir, 'assets')))).toEqual([
      `${join(dir, 'assets')}: no tenant files (*.yaml, *.yml, *.json)`,
    ]);
  });
});
