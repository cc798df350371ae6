import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TenantConfigError } from '@portal/core';
import { loadTenants } from './load';
import { TenantRegistry } from './registry';

const SHIPPED = resolve(__dirname, '../../../config/tenants');
const dirs: string[] = [];
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tenants-'));
  cpSync(SHIPPED, dir, { recursive: true });
  dirs.push(dir);
  return dir;
}
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() } as never;
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function problems(dir: string): string[] {
  try {
    loadTenants(dir);
  } catch (error) {
    return (error as TenantConfigError).problems;
  }
  return [];
}

describe('tenant configuration', () => {
  it('loads the shipped tenants with real differences', () => {
    const [acme, northbank] = loadTenants(SHIPPED);
    expect(acme!.config.menu_variant).toBe('classic');
    expect(northbank!.config.menu_variant).toBe('data-grid');
    expect(acme!.config.dashboard.pie_chart).not.toBe(northbank!.config.dashboard.pie_chart);
    expect(acme!.config.site_name).not.toBe(northbank!.config.site_name);
    expect(acme!.config.client_kind).not.toBe(northbank!.config.client_kind);
  });

  it('names the file, the field and the problem', () => {
    const dir = copy();
    const file = join(dir, 'acme.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace("primary: '#1f5fbf'", "primary: 'blue'")
        .replace('menu_variant: classic', 'menu_variant: sideways'),
    );
    const found = problems(dir);
    expect(found.some((p) => p.startsWith(`${file}: branding.colors.primary:`))).toBe(true);
    expect(found.some((p) => p.startsWith(`${file}: menu_variant:`))).toBe(true);
  });

  it('refuses a host used twice, a missing logo file and unknown fields', () => {
    const dir = copy();
    const nb = join(dir, 'northbank.yaml');
    writeFileSync(
      nb,
      readFileSync(nb, 'utf8')
        .replace('domains: [northbank.localhost]', 'domains: [northbank.localhost, acme.localhost]')
        .replace('logo: logo.svg', 'logo: nope.svg'),
    );
    const found = problems(dir).join('\n');
    expect(found).toContain(`${nb}: domains: 'acme.localhost' is already used by tenant 'acme'`);
    expect(found).toContain(`${nb}: branding.logo: file`);
    writeFileSync(nb, readFileSync(nb, 'utf8') + 'colour_scheme: dark\n');
    expect(problems(dir).join('\n')).toContain(`${nb}: colour_scheme: Unexpected property`);
  });

  it('reloads on change, and refuses an invalid change keeping the last good configuration', async () => {
    const dir = copy();
    const registry = new TenantRegistry(dir, log);
    registry.watch(50);
    try {
      const file = join(dir, 'northbank.yaml');
      const text = readFileSync(file, 'utf8');
      writeFileSync(
        file,
        text.replace('site_name: Northbank Dispute Center', 'site_name: Northbank Disputes'),
      );
      await vi.waitFor(
        () => expect(registry.resolve('northbank.localhost')!.config.site_name).toBe('Northbank Disputes'),
        { timeout: 3000 },
      );
      const refused = new Promise<string[]>((r) => registry.once('reload-refused', r));
      writeFileSync(file, text.replace('menu_variant: data-grid', 'menu_variant: 7'));
      expect((await refused).join('\n')).toContain('menu_variant');
      expect(registry.resolve('northbank.localhost')!.config.site_name).toBe('Northbank Disputes');
      expect(registry.resolve('northbank.localhost')!.config.menu_variant).toBe('data-grid');
    } finally {
      registry.close();
    }
  });

  it('resolves unknown hosts to the default tenant', () => {
    const registry = new TenantRegistry(SHIPPED, log);
    expect(registry.resolve('localhost')!.config.id).toBe('acme');
    expect(registry.resolve('portal.example')!.config.id).toBe('acme');
    expect(registry.resolve('northbank.localhost')!.config.id).toBe('northbank');
  });
});
