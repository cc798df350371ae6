import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Icons come from one SVG set (lucide-react, drawn through Chakra's Icon), never
 * from characters: an emoji or a symbol glyph renders as an empty box where no
 * font has it (📄 in Chromium without an emoji font) and looks different on every
 * OS. This scans every .ts/.tsx file under web/src, comments included, for:
 *
 * - \p{Extended_Pictographic}: emoji and pictographs (📄 ⚑ ✂ ▶ ...), except © ® ™,
 *   which are typography;
 * - \p{Regional_Indicator} (flag pairs), U+FE0F (emoji presentation), U+20E3 (keycap);
 * - whole symbol blocks: Arrows U+2190–21FF, Miscellaneous Technical U+2300–23FF,
 *   Box Drawing, Block Elements and Geometric Shapes U+2500–25FF (▸ ▾ ■ ●),
 *   Miscellaneous Symbols U+2600–26FF (☰ ⚑), Dingbats U+2700–27BF (✓ ✕ ✗),
 *   Supplemental Arrows A and B U+27F0–27FF and U+2900–297F, Miscellaneous Symbols
 *   and Arrows U+2B00–2BFF (⬆), and the Private Use Area U+E000–F8FF (icon fonts);
 * - operators and punctuation seen used as icons: the circled operators ⊕ ⊖ ⊗ ⊘ ⊙
 *   (U+2295–2299), the squared ones ⊞ ⊟ ⊠ ⊡ (U+229E–22A1), the ellipses ⋮ ⋯ ⋰ ⋱
 *   (U+22EE–22F1) and the single guillemets ‹ › (U+2039, U+203A, once pager arrows).
 *
 * Characters in the text stay allowed: the ellipsis '…', the dashes '–' '—', the
 * middle dot '·', the multiplication sign '×', quotes, '§', '•' and the rest of
 * the typographic and mathematical characters (≤ ≥ ≠ −) are not in the set.
 * The same characters written as escapes (\u2691, \u{1F4C4}) or HTML entities
 * (&#9873; &#x2691;) count too.
 */
const ICON_LIKE = new RegExp(
  [
    '\\p{Extended_Pictographic}',
    '\\p{Regional_Indicator}',
    '[\\u{FE0F}\\u{20E3}]',
    '[\\u{2190}-\\u{21FF}\\u{2300}-\\u{23FF}\\u{2500}-\\u{25FF}\\u{2600}-\\u{26FF}\\u{2700}-\\u{27BF}]',
    '[\\u{27F0}-\\u{27FF}\\u{2900}-\\u{297F}\\u{2B00}-\\u{2BFF}\\u{E000}-\\u{F8FF}]',
    '[\\u{2295}-\\u{2299}\\u{229E}-\\u{22A1}\\u{22EE}-\\u{22F1}\\u{2039}\\u{203A}]',
  ].join('|'),
  'u',
);
const TYPOGRAPHIC = new Set(['©', '®', '™']);

function isIconLike(ch: string): boolean {
  return !TYPOGRAPHIC.has(ch) && ICON_LIKE.test(ch);
}

/** \uXXXX (surrogate pairs included), \u{X...}, &#N; and &#xN; written out as the characters they stand for. */
const ESCAPES = /(?:\\u[0-9a-fA-F]{4})+|\\u\{([0-9a-fA-F]{1,6})\}|&#x([0-9a-fA-F]{1,6});|&#(\d{1,7});/g;

function decodeEscapes(line: string): string {
  return line.replace(ESCAPES, (all: string, braced?: string, hexDigits?: string, dec?: string) => {
    const digits = braced ?? hexDigits;
    const point = digits !== undefined ? parseInt(digits, 16) : dec !== undefined ? Number(dec) : undefined;
    if (point === undefined)
      return String.fromCharCode(
        ...all
          .split('\\u')
          .slice(1)
          .map((h) => parseInt(h, 16)),
      );
    return point <= 0x10ffff ? String.fromCodePoint(point) : all;
  });
}

const hex = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Every icon-like character of `text`, as '<line>: U+XXXX 'ch''. */
function iconCharacters(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const ch of decodeEscapes(line)) if (isIconLike(ch)) found.push(`${i + 1}: ${hex(ch)} '${ch}'`);
  });
  return found;
}

const WEB_SRC = join(process.cwd(), 'web', 'src');
const sources = (readdirSync(WEB_SRC, { recursive: true }) as string[])
  .filter((f) => /\.tsx?$/.test(f))
  .map((f) => join(WEB_SRC, f));

describe('no emoji or symbol glyphs as icons in web/src', () => {
  it('tells icons from text characters', () => {
    for (const ch of [
      '📄',
      '⊘',
      '⬆',
      '⚑',
      '▸',
      '▾',
      '☰',
      '✓',
      '✕',
      '✗',
      '⋮',
      '‹',
      '›',
      '↑',
      '▶',
      '🔧',
      '\u{F00C}',
    ])
      expect(isIconLike(ch), ch).toBe(true);
    for (const ch of [
      '…',
      '–',
      '—',
      '·',
      '×',
      '§',
      '’',
      '“',
      '•',
      '≤',
      '≥',
      '−',
      '©',
      '®',
      '™',
      'é',
      'A',
      '1',
      '#',
    ])
      expect(isIconLike(ch), ch).toBe(false);
    expect(
      iconCharacters("a\nconst flag = '\\u2691';\nx = '\\uD83D\\uDCC4' + '&#x2B06;' + '\\u{2630}'"),
    ).toEqual(["2: U+2691 '⚑'", "3: U+1F4C4 '📄'", "3: U+2B06 '⬆'", "3: U+2630 '☰'"]);
    expect(iconCharacters("'\\u0000' + `&#${code};` + '10 × 20 – 30…'")).toEqual([]);
  });

  it('finds none in any .ts or .tsx file', () => {
    expect(sources.length).toBeGreaterThan(100);
    const problems = sources.flatMap((file) =>
      iconCharacters(readFileSync(file, 'utf8')).map((hit) => `${relative(process.cwd(), file)}:${hit}`),
    );
    expect(problems, 'use a lucide-react icon through Chakra <Icon> instead').toEqual([]);
  });
});
