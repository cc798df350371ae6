import { badRequest } from '@portal/core';

export interface DateRange {
  from: string;
  to: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Parses 'yyyy-MM-dd|yyyy-MM-dd' (design §5); a malformed range is a 400 naming the parameter. */
export function parseDateRange(value: string | undefined, param: string): DateRange | undefined {
  if (value === undefined || value === '') return undefined;
  const [from, to, extra] = value.split('|');
  if (extra !== undefined || !from || !to || !isDate(from) || !isDate(to)) {
    throw badRequest(`${param} must be a date range 'yyyy-MM-dd|yyyy-MM-dd'.`);
  }
  if (from > to) throw badRequest(`${param}: the start date must not be after the end date.`);
  return { from, to };
}

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The last `days` days up to today (dashboard default: 90). */
export function lastDays(days: number, today = new Date()): DateRange {
  const from = new Date(today.getTime() - days * 86_400_000);
  return { from: isoDay(from), to: isoDay(today) };
}

export function parseIdList(value: string | undefined): number[] | undefined {
  if (value === undefined || value === '') return undefined;
  return value.split(',').map(Number);
}
