/** Date helpers for yyyy-MM-dd ranges stored as 'from|to' (spec 1 §9), in the browser's local time. */
export function toIsoDate(d: Date): string {
  const y = d.getFullYear();
  const m = String(d.getMonth() + 1).padStart(2, '0');
  const day = String(d.getDate()).padStart(2, '0');
  return `${y}-${m}-${day}`;
}

export function parseIsoDate(s: string): Date {
  const [y, m, d] = s.split('-').map(Number);
  return new Date(y!, (m ?? 1) - 1, d ?? 1);
}

export function addDays(d: Date, days: number): Date {
  const r = new Date(d);
  r.setDate(r.getDate() + days);
  return r;
}

export interface DateRange {
  from: string;
  to: string;
}

export function rangeParam(r: DateRange): string {
  return `${r.from}|${r.to}`;
}

/** The last `days` days up to today. */
export function lastDays(days: number, today = new Date()): DateRange {
  return { from: toIsoDate(addDays(today, -days)), to: toIsoDate(today) };
}

export function monthToDate(today = new Date()): DateRange {
  return { from: toIsoDate(new Date(today.getFullYear(), today.getMonth(), 1)), to: toIsoDate(today) };
}

export function daysBetween(r: DateRange): number {
  return Math.round((parseIsoDate(r.to).getTime() - parseIsoDate(r.from).getTime()) / 86_400_000);
}

/** Dashboard pickers block future dates: clamps both ends to today and keeps from <= to. */
export function clampRange(r: DateRange, today = new Date()): DateRange {
  const max = toIsoDate(today);
  const to = r.to > max ? max : r.to;
  const from = r.from > to ? to : r.from;
  return { from, to };
}
