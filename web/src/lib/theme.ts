import { createSystem, defaultConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
import type { Look, TenantBootstrap } from '@portal/contracts';

const mix = (color: string, pct: number, other = 'white') => `color-mix(in srgb, ${color} ${pct}%, ${other})`;

/**
 * A Chakra v3 system from a tenant look: the `brand` palette with the seven
 * semantic keys colorPalette needs, plus shell colours and fonts.
 */
export function systemFromLook(look: Look): SystemContext {
  const c = look.colors;
  const config = defineConfig({
    globalCss: {
      body: { bg: 'app.bg', fontFamily: 'body' },
    },
    theme: {
      tokens: {
        fonts: { heading: { value: look.fonts.heading }, body: { value: look.fonts.body } },
      },
      semanticTokens: {
        colors: {
          brand: {
            solid: { value: c.primary },
            contrast: { value: c.primary_contrast },
            fg: { value: c.primary },
            muted: { value: mix(c.primary, 35) },
            subtle: { value: mix(c.primary, 12) },
            emphasized: { value: mix(c.primary, 80, 'black') },
            focusRing: { value: c.primary },
          },
          accent: { value: c.accent },
          secondary: { value: c.secondary },
          sidebar: {
            bg: { value: c.sidebar_bg },
            fg: { value: c.sidebar_fg },
            hover: { value: mix(c.sidebar_fg, 12, c.sidebar_bg) },
          },
          topbar: { bg: { value: c.topbar_bg }, fg: { value: c.topbar_fg } },
          app: { bg: { value: c.background } },
        },
      },
    },
  });
  return createSystem(defaultConfig, config);
}

/** The look for a user: the partner-branded variant when theme_variant > 1 (spec 1 §1, §3.1). */
export function lookFor(tenant: TenantBootstrap, themeVariant: number | undefined): Look {
  return themeVariant !== undefined && themeVariant > 1 ? tenant.variant.look : tenant.look;
}

export function applyFavicon(url: string): void {
  if (!url) return;
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.href !== url) link.href = url;
}
