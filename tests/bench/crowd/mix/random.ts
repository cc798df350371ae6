import { randomBytes } from 'node:crypto';

/** Randomness and the dates of the web app's pickers (local yyyy-MM-dd, ranges as 'from|to'). */

export const chance = (p: number): boolean => Math.random() < p;

export const randomInt = (min: number, max: number): number =>
  min + Math.floor(Math.random() * (max - min + 1));

export function pick<T>(items: readonly T[]): T {
  if (!items.length) throw new Error('pick from an empty list');
  return items[Math.floor(Math.random() * items.length)]!;
}

/** One item by weight: [[item, weight], ...]. */
export function weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
  const total = choices.reduce((n, [, w]) => n + w, 0);
  let r = Math.random() * total;
  for (const [item, w] of choices) {
    r -= w;
    if (r < 0) return item;
  }
  return choices[choices.length - 1]![0];
}

/** `n` distinct items (fewer when the list is shorter). */
export function sample<T>(items: readonly T[], n: number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

/** A token that makes a written text findable in the database afterwards. */
export const uniqueToken = (): string => randomBytes(6).toString('hex');

export function isoDate(d: Date): string {
  const m = String(d.getMonth() + 1).padStart(2, '0');
  const day = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${m}-${day}`;
}

function addDays(d: Date, days: number): Date {
  const r = new Date(d);
  r.setDate(r.getDate() + days);
  return r;
}

export const range = (from: Date, to: Date): string => `${isoDate(from)}|${isoDate(to)}`;
export const lastDays = (days: number, today = new Date()): string => range(addDays(today, -days), today);
export const nextDays = (days: number, today = new Date()): string => range(today, addDays(today, days));
export const monthToDate = (today = new Date()): string =>
  range(new Date(today.getFullYear(), today.getMonth(), 1), today);
/** From the first of the month `months` back to today (the KPI page's default is 6). */
export const priorMonths = (months: number, today = new Date()): string =>
  range(new Date(today.getFullYear(), today.getMonth() - months, 1), today);

/** A whole calendar month among the last `back` months (the seed has 18 months of post dates). */
export function someMonth(back: number, today = new Date()): string {
  const k = randomInt(1, back);
  const first = new Date(today.getFullYear(), today.getMonth() - k, 1);
  const last = new Date(today.getFullYear(), today.getMonth() - k + 1, 0);
  return range(first, last);
}
