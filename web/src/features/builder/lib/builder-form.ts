import type { BuilderField, BuilderFieldError, BuilderGroup } from '@portal/contracts';

/** The icon of a field group by its id (spec 2 §2.7). */
export const GROUP_ICONS: Record<number, string> = {
  1: 'address card',
  2: 'invoice',
  3: 'truck',
  5: 'credit card',
  6: 'box',
  7: 'building',
  8: 'briefcase',
  9: 'ticket',
  10: 'laptop',
  13: 'plane',
  14: 'list',
};

/** Card expiry-style input: digits only, shown as MM/YY. */
export function maskMmYy(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export type Values = Record<number, string>;
export type FieldErrors = Record<string, string[]>;

export function valuesOf(groups: readonly BuilderGroup[]): Values {
  const v: Values = {};
  for (const g of groups) for (const f of g.fields) v[f.id] = f.value ?? '';
  return v;
}

/** The browser's copy of the server's required rule: Save & Continue waits for every required value. */
export function missingRequired(groups: readonly BuilderGroup[], values: Values): BuilderField[] {
  return groups.flatMap((g) => g.fields).filter((f) => f.is_required && !(values[f.id] ?? '').trim());
}

/** data.fields of a refused save as a map by id (catalogue ids and draft names alike). */
export function fieldErrorsOf(body: unknown): FieldErrors | null {
  const fields = (body as { data?: { fields?: BuilderFieldError[] } } | null)?.data?.fields;
  if (!Array.isArray(fields)) return null;
  return Object.fromEntries(fields.map((f) => [String(f.id), f.errors]));
}

/** Full date and time (spec 2 §2.7 'last updated'). */
export const fullDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'full', timeStyle: 'short' });

/** The due date as the builder shows it: one day on (spec 2 §2.7), MM/dd/yyyy. */
export function dueDatePlusOne(iso: string): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(d.getUTCDate()).padStart(2, '0');
  return `${mm}/${dd}/${d.getUTCFullYear()}`;
}
