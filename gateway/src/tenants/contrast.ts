import { AA_TEXT_CONTRAST, contrastRatio, parseHex } from '@portal/contracts';
import type { LookConfig } from '@portal/core';

/**
 * Text the portal draws on a tenant's colours must reach WCAG AA's 4.5:1 (issue 29.5): checked when the
 * configuration loads (load.ts), so that a brand change cannot ship unreadable buttons or a blank top bar.
 */

type ColorKey = keyof LookConfig['colors'];

/** The text-on-colour pairs the web app draws (web/src/lib/theme.ts and the shell), with what they are. */
const TEXT_ON_COLOR: readonly { text: ColorKey; on: ColorKey; what: string }[] = [
  { text: 'primary_contrast', on: 'primary', what: 'button and active menu entry text on the brand colour' },
  { text: 'topbar_fg', on: 'topbar_bg', what: 'top bar text' },
  { text: 'sidebar_fg', on: 'sidebar_bg', what: 'menu text' },
  { text: 'primary', on: 'background', what: 'brand-coloured text (links, outline buttons) on the page' },
  { text: 'sidebar_bg', on: 'accent', what: 'the menu marker badge' },
];

/**
 * One line per pair under AA, naming the tenant, the field and both colours, e.g.
 * "variant.look.colors.primary_contrast: tenant 'acme': text #ffffff on primary #0d9488 has contrast
 * 3.74:1, WCAG AA needs 4.5:1 (button and active menu entry text on the brand colour)".
 */
export function lookContrastProblems(tenant: string, field: string, look: LookConfig): string[] {
  const problems: string[] = [];
  for (const pair of TEXT_ON_COLOR) {
    const text = look.colors[pair.text];
    const on = look.colors[pair.on];
    if (!parseHex(text) || !parseHex(on)) {
      const bad = parseHex(text) ? pair.on : pair.text;
      problems.push(
        `${field}.colors.${bad}: tenant '${tenant}': '${look.colors[bad]}' is not a hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)`,
      );
      continue;
    }
    const ratio = contrastRatio(text, on);
    if (ratio < AA_TEXT_CONTRAST)
      problems.push(
        `${field}.colors.${pair.text}: tenant '${tenant}': text ${text} on ${pair.on} ${on} has contrast ` +
          `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1, WCAG AA needs ${AA_TEXT_CONTRAST}:1 (${pair.what})`,
      );
  }
  return [...new Set(problems)];
}
