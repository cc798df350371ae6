/**
 * Full card numbers (PANs) in a page's text: 13 to 19 digits, written
 * together or in groups split by single spaces or dashes, that pass the Luhn
 * check. Answers each number's character range, so that the caller can find
 * where on the page it is drawn.
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
        if (digits.length >= 13 && luhn(digits)) {
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
