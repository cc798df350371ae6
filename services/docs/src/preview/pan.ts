/**
 * Full card numbers (PANs) in a page's text: 13 to 19 digits, written
 * together or in groups split by single spaces or dashes, that pass the Luhn
 * check and begin with a card brand's issuer range at a length that brand
 * issues. Answers each number's character range, so that the caller can find
 * where on the page it is drawn.
 *
 * The issuer ranges matter: one number in ten passes the Luhn check, and a
 * packet is full of long numbers that are not cards (the portal's 14-digit
 * case numbers, order and tracking numbers). Without them a remedy or a case
 * summary naming its case number was refused as showing a card about one time
 * in ten, with nothing the user could mask.
 */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Issuer ranges (first digits, as [low, high] of that many digits) and the lengths their cards have. */
const BRANDS: ReadonlyArray<{
  ranges: ReadonlyArray<readonly [number, number]>;
  lengths: readonly number[];
}> = [
  { ranges: [[4, 4]], lengths: [13, 16, 19] }, // Visa
  {
    ranges: [
      [51, 55],
      [2221, 2720],
    ],
    lengths: [16],
  }, // Mastercard
  {
    ranges: [
      [34, 34],
      [37, 37],
    ],
    lengths: [15],
  }, // American Express
  {
    ranges: [
      [6011, 6011],
      [644, 649],
      [65, 65],
      [622126, 622925],
    ],
    lengths: [16, 17, 18, 19],
  }, // Discover
  {
    ranges: [
      [300, 305],
      [36, 36],
      [38, 39],
    ],
    lengths: [14, 15, 16, 17, 18, 19],
  }, // Diners Club
  { ranges: [[3528, 3589]], lengths: [16, 17, 18, 19] }, // JCB
  { ranges: [[62, 62]], lengths: [16, 17, 18, 19] }, // UnionPay
  { ranges: [[2200, 2204]], lengths: [16, 17, 18, 19] }, // Mir
  {
    ranges: [
      [50, 50],
      [56, 69],
    ],
    lengths: [13, 14, 15, 16, 17, 18, 19],
  }, // Maestro
];

/** A number a card brand could have issued: its issuer range and length, and the Luhn check. */
export function isCardNumber(digits: string): boolean {
  const issued = BRANDS.some(
    (b) =>
      b.lengths.includes(digits.length) &&
      b.ranges.some(([low, high]) => {
        const head = Number(digits.slice(0, String(low).length));
        return head >= low && head <= high;
      }),
  );
  return issued && luhn(digits);
}

export interface PanMatch {
  start: number;
  end: number;
  digits: string;
}

export function findPans(text: string): PanMatch[] {
  const found: PanMatch[] = [];
  // Runs of digit groups; a number may start or end at any group of a run (a date or an id may stand beside it).
  for (const run of text.matchAll(/\d+(?:[ -]\d+)*/g)) {
    const groups = [...run[0].matchAll(/\d+/g)].map((g) => ({ start: run.index + g.index, text: g[0] }));
    for (let i = 0; i < groups.length; i++) {
      let digits = '';
      for (let j = i; j < groups.length; j++) {
        digits += groups[j]!.text;
        if (digits.length > 19) break;
        if (digits.length >= 13 && isCardNumber(digits)) {
          const last = groups[j]!;
          found.push({ start: groups[i]!.start, end: last.start + last.text.length, digits });
          i = j;
          break;
        }
      }
    }
  }
  return found;
}

/** How a number is named to a person: its last four digits only. */
export const maskedPan = (digits: string) => `•••• ${digits.slice(-4)}`;
