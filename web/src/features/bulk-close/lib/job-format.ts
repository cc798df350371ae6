const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function ordinal(n: number): string {
  const rem100 = n % 100;
  if (rem100 >= 11 && rem100 <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** '1st of June 2024 at 3:05pm' (spec 2 §4), in the browser's time zone. */
export function formatJobDate(iso: string, zone?: string): string {
  const d = new Date(iso);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const ampm = get('dayPeriod').toLowerCase();
  return `${ordinal(Number(get('day')))} of ${MONTHS[Number(get('month')) - 1]} ${get('year')} at ${get('hour')}:${get('minute')}${ampm}`;
}

/** Amounts as 'min - max' with 2 decimals. */
export function formatAmountRange(min: number, max: number): string {
  return `${min.toFixed(2)} - ${max.toFixed(2)}`;
}

const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

/** Amount range rules (spec 2 §5): both required, up to 2 decimals, max not below min. */
export function amountRangeError(min: string, max: string): string | null {
  if (!min.trim() && !max.trim()) return null;
  if (!AMOUNT.test(min.trim()) || !AMOUNT.test(max.trim())) return 'Invalid amount entered.';
  if (Number(max) < Number(min)) return 'The maximum value cannot be lower than the minimum value.';
  return null;
}
