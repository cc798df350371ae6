import { createSystem, defaultConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
import { dialogAnatomy, drawerAnatomy } from '@chakra-ui/react/anatomy';
import type { Look, TenantBootstrap } from '@portal/contracts';

const mix = (color: string, pct: number, other = 'white') => `color-mix(in srgb, ${color} ${pct}%, ${other})`;

/**
 * Chakra's solid green, orange, teal, cyan and pink (the 600 shades) carry white text at 3.3 to 4.1:1,
 * under WCAG AA's 4.5:1 (issue 29.5, axe color-contrast): their solid badges and buttons use the 700
 * shade (5.0 to 6.0:1). Blue, red, purple and gray already pass.
 */
const AA_SOLIDS = Object.fromEntries(
  ['green', 'orange', 'teal', 'cyan', 'pink'].map((p) => [p, { solid: { value: `{colors.${p}.700}` } }]),
);

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
      recipes: {
        // The primary (solid) button is the tenant's brand colour on every screen, not Chakra's grey-black;
        // a colorPalette given on a button (red for destructive ones) still wins.
        button: { variants: { variant: { solid: { colorPalette: 'brand' } } } },
      },
      slotRecipes: {
        dialog: {
          slots: dialogAnatomy.keys(),
          base: {
            // A dialog keeps a margin to the screen's edges on a phone, and its title keeps clear of the
            // close button in the corner.
            positioner: { px: { base: '2', sm: '4' } },
            header: { pe: '12' },
          },
        },
        drawer: { slots: drawerAnatomy.keys(), base: { header: { pe: '12' } } },
      },
      semanticTokens: {
        colors: {
          ...AA_SOLIDS,
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
