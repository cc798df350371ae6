/**
 * WCAG 2.2 contrast of colours (issue 29.5), shared by the gateway (tenant colours are refused at
 * config load under AA) and the web app (text drawn on a data colour picks black or white).
 * https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio
 */

/** WCAG AA for normal text. */
export const AA_TEXT_CONTRAST = 4.5;

type Rgba = [r: number, g: number, b: number, a: number];

/** '#rgb', '#rgba', '#rrggbb' or '#rrggbbaa' as 0-255 channels and alpha 0-1; null for anything else. */
export function parseHex(color: string): Rgba | null {
  const hex = /^#([0-9a-f]+)$/i.exec(color)?.[1];
  if (!hex || ![3, 4, 6, 8].includes(hex.length)) return null;
  const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
  const byte = (i: number) => parseInt(full.slice(i * 2, i * 2 + 2), 16);
  return [byte(0), byte(1), byte(2), full.length === 8 ? byte(3) / 255 : 1];
}

/** A colour with alpha laid over an opaque one. */
const over = (top: Rgba, under: Rgba): Rgba => [
  top[0] * top[3] + under[0] * (1 - top[3]),
  top[1] * top[3] + under[1] * (1 - top[3]),
  top[2] * top[3] + under[2] * (1 - top[3]),
  1,
];

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

const WHITE: Rgba = [255, 255, 255, 1];

/**
 * The contrast ratio (1 to 21) of text colour `fg` on background `bg`. A translucent background is
 * taken over white (the page), a translucent text colour over its background.
 */
export function contrastRatio(fg: string, bg: string): number {
  const b = parseHex(bg);
  const f = parseHex(fg);
  if (!b || !f) throw new Error(`not a hex colour: ${!f ? fg : bg}`);
  const back = over(b, WHITE);
  const [hi, lo] = [luminance(over(f, back)), luminance(back)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The more readable of black and white text on `bg` (a chart slice's label, a badge on a data colour). */
export function textColorOn(bg: string, dark = '#1a202c', light = '#ffffff'): string {
  return contrastRatio(light, bg) >= contrastRatio(dark, bg) ? light : dark;
}
