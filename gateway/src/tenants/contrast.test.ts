import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contrastRatio, parseHex, textColorOn } from '@portal/contracts';
import { TenantConfigError } from '@portal/core';
import { lookContrastProblems } from './contrast';
import { loadTenants } from './load';

const SHIPPED = resolve(__dirname, '../../../config/tenants');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the shipped tenant files with one file's text changed. */
function withEdit(file: string, edit: (yaml: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tenants-contrast-'));
  dirs.push(dir);
  cpSync(SHIPPED, dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  return dir;
}

function loadError(dir: string): TenantConfigError {
  try {
    loadTenants(dir);
  } catch (error) {
    if (error instanceof TenantConfigError) return error;
    throw error;
  }
  throw new Error('the configuration loaded');
}

const look = (colors: Partial<Record<string, string>> = {}) => ({
  logo: 'logo.svg',
  favicon: 'favicon.svg',
  fonts: { heading: 'Inter', body: 'Inter' },
  colors: {
    primary: '#1f5fbf',
    primary_contrast: '#ffffff',
    secondary: '#0f2747',
    accent: '#f59e0b',
    sidebar_bg: '#0f2747',
    sidebar_fg: '#e6eefb',
    topbar_bg: '#ffffff',
    topbar_fg: '#0f2747',
    background: '#f5f7fb',
    ...colors,
  },
});

describe('WCAG contrast ratio', () => {
  it('matches the reference values', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBeCloseTo(1, 5);
    // Symmetric; #767676 is the lightest grey with AA on white, #777777 just misses it.
    expect(contrastRatio('#ffffff', '#767676')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#ffffff', '#0d9488')).toBeCloseTo(3.74, 2);
  });

  it('reads #rgb, #rgba, #rrggbb and #rrggbbaa, and lays translucent colours over their background', () => {
    expect(parseHex('#0f0')).toEqual([0, 255, 0, 1]);
    expect(parseHex('#00ff0080')).toEqual([0, 255, 0, 128 / 255]);
    expect(parseHex('#12345')).toBeNull();
    expect(parseHex('blue')).toBeNull();
    // Black at 0% over white is white: no contrast at all.
    expect(contrastRatio('#00000000', '#ffffff')).toBeCloseTo(1, 5);
    // A translucent background is taken over the white page.
    expect(contrastRatio('#000', '#00000000')).toBeCloseTo(21, 5);
  });

  it('picks the more readable of dark and white text on a colour', () => {
    expect(textColorOn('#2b6cb0')).toBe('#ffffff');
    expect(textColorOn('#d69e2e')).toBe('#1a202c');
    expect(textColorOn('#a0aec0')).toBe('#1a202c');
  });
});

describe('tenant colours at config load', () => {
  it('passes the shipped tenants and their partner variants', () => {
    const tenants = loadTenants(SHIPPED);
    for (const t of tenants) {
      expect(lookContrastProblems(t.config.id, 'branding', t.config.branding)).toEqual([]);
      expect(lookContrastProblems(t.config.id, 'variant.look', t.config.variant.look)).toEqual([]);
    }
  });

  it('names the tenant, the field, both colours and the ratio', () => {
    const problems = lookContrastProblems('acme', 'variant.look', look({ primary: '#0d9488' }));
    expect(problems).toEqual([
      "variant.look.colors.primary_contrast: tenant 'acme': text #ffffff on primary #0d9488 has contrast 3.74:1, WCAG AA needs 4.5:1 (button and active menu entry text on the brand colour)",
      "variant.look.colors.primary: tenant 'acme': text #0d9488 on background #f5f7fb has contrast 3.49:1, WCAG AA needs 4.5:1 (brand-coloured text (links, outline buttons) on the page)",
    ]);
    // A ratio just under the bar is not rounded up to pass: 4.48 is reported as 4.48, and refused.
    expect(lookContrastProblems('t', 'branding', look({ topbar_fg: '#777777' }))).toEqual([
      "branding.colors.topbar_fg: tenant 't': text #777777 on topbar_bg #ffffff has contrast 4.47:1, WCAG AA needs 4.5:1 (top bar text)",
    ]);
    expect(lookContrastProblems('t', 'branding', look({ topbar_fg: '#767676' }))).toEqual([]);
  });

  it('checks the top bar, the menu and its marker', () => {
    const found = lookContrastProblems(
      'northbank',
      'branding',
      look({ topbar_bg: '#7a1f3d', topbar_fg: '#444444', sidebar_fg: '#333a44', accent: '#1e293b' }),
    );
    expect(found.map((p) => p.split(':')[0])).toEqual([
      'branding.colors.topbar_fg',
      'branding.colors.sidebar_fg',
      'branding.colors.sidebar_bg',
    ]);
  });

  it('fails start-up with a message naming the file, tenant and colour', () => {
    const dir = withEdit('northbank.yaml', (y) =>
      y.replace(
        "primary_contrast: '#ffffff'\n    secondary: '#2b2d42'",
        "primary_contrast: '#8a8a8a'\n    secondary: '#2b2d42'",
      ),
    );
    const error = loadError(dir);
    const file = join(dir, 'northbank.yaml');
    expect(error.problems).toEqual([
      `${file}: branding.colors.primary_contrast: tenant 'northbank': text #8a8a8a on primary #7a1f3d has contrast 2.90:1, WCAG AA needs 4.5:1 (button and active menu entry text on the brand colour)`,
    ]);
    expect(error.message).toContain("tenant 'northbank': text #8a8a8a on primary #7a1f3d");
  });

  it('refuses a colour that is not a CSS hex colour (the schema lets five digits through)', () => {
    const dir = withEdit('acme.yaml', (y) => y.replace("topbar_bg: '#ffffff'", "topbar_bg: '#fffff'"));
    expect(loadError(dir).problems).toEqual([
      `${join(dir, 'acme.yaml')}: branding.colors.topbar_bg: tenant 'acme': '#fffff' is not a hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)`,
    ]);
  });
});
