/**
 * Dates written in a page's text (ISO 2026-11-05, US 11/05/2026, and
 * 'Nov 5, 2026' / 'November 5 2026'), as yyyy-MM-dd. Impossible dates are
 * left out.
 */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function iso(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

export function datesIn(text: string): string[] {
  const out: Array<string | null> = [];
  for (const m of text.matchAll(/\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/g))
    out.push(iso(+m[1]!, +m[2]!, +m[3]!));
  for (const m of text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/((?:19|20)\d{2})\b/g))
    out.push(iso(+m[3]!, +m[1]!, +m[2]!));
  for (const m of text.matchAll(/\b([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? ((?:19|20)\d{2})\b/g)) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase());
    if (month >= 0) out.push(iso(+m[3]!, month + 1, +m[2]!));
  }
  return out.filter((d): d is string => d !== null);
}
