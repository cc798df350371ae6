import { isIP } from 'node:net';
import {
  MONEY_MAX,
  REMEDY_MESSAGES as M,
  REMEDY_RULES as R,
  RemedyBody,
  undisputedDateWindow,
  type MatchingDetails,
  type RemedyViolation,
  type UndisputedTransaction,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { Value, type ValueError } from '@sinclair/typebox/value';

/**
 * Every rule of spec 2 §5 'Remedy wizard' on a POST /cm/cases/{id}/ce body,
 * answered as violations ({propertyPath, title}) the failure dialog shows.
 * Paths are relative to `dl` (`undisputed_transactions[0].historical_arn`,
 * `tracking_information`), `doc[...]` for the document pairs.
 */

interface RemedyCaseFacts {
  case_no: string;
  date_post: string;
}

interface RemedyLookups {
  currencies: ReadonlySet<string>;
  countries: ReadonlySet<string>;
}

export async function remedyLookups(db: Queryable): Promise<RemedyLookups> {
  const [cur, cty] = await Promise.all([
    db.query<{ code: string }>('select code from cases.currencies'),
    db.query<{ code: string }>('select code from cases.countries'),
  ]);
  return {
    currencies: new Set(cur.rows.map((r) => r.code)),
    countries: new Set(cty.rows.map((r) => r.code)),
  };
}

/** `/dl/undisputed_transactions/0/historical_arn` -> `undisputed_transactions[0].historical_arn`. */
function toPropertyPath(pointer: string): string {
  const parts = pointer.split('/').filter(Boolean);
  if (parts[0] === 'dl' && parts.length > 1) parts.shift();
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || 'body';
}

type Schema = {
  type?: string;
  pattern?: string;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  const?: unknown;
};

function schemaTitle(e: ValueError): string {
  if (e.value === undefined) return M.required;
  let schema = e.schema as Schema;
  // Optional text is string | null: judge a string by the string branch.
  if (schema.anyOf) {
    const branch = schema.anyOf.find((s) => s.type === typeof e.value);
    if (!branch || branch.const !== undefined) return 'Invalid value.';
    schema = branch;
  }
  if (typeof e.value === 'string') {
    if (schema.maxLength !== undefined && e.value.length > schema.maxLength)
      return `Must be at most ${schema.maxLength} characters.`;
    if (schema.pattern?.includes('\\d{4}')) return 'Must be a date (yyyy-MM-dd, midnight UTC).';
    if (schema.pattern) return 'Invalid characters.';
  }
  if (schema.type === 'array' && Array.isArray(e.value)) {
    if (schema.minItems !== undefined && e.value.length < schema.minItems)
      return `At least ${schema.minItems} entry is required.`;
    if (schema.maxItems !== undefined && e.value.length > schema.maxItems)
      return `At most ${schema.maxItems} entries are allowed.`;
  }
  if (schema.type === 'number') return 'Must be a number.';
  if (schema.type === 'string') return 'Must be text.';
  if (schema.type === 'array') return 'Must be a list.';
  if (schema.type === 'object') return 'Must be an object.';
  return e.message;
}

/** Shape errors first (one per property, the first found); the rules need a well-formed body. */
function shapeViolations(body: unknown): RemedyViolation[] {
  const seen = new Set<string>();
  const out: RemedyViolation[] = [];
  for (const e of Value.Errors(RemedyBody, body)) {
    // A missing `dl` or `doc` yields errors for its parent too: keep the first per path.
    const propertyPath = toPropertyPath(e.path);
    if (seen.has(propertyPath)) continue;
    seen.add(propertyPath);
    out.push({ propertyPath, title: schemaTitle(e) });
    if (out.length >= 50) break;
  }
  return out;
}

const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === '';
const DAY = 86_400_000;

/** A calendar date (yyyy-MM-dd prefix) that exists, as UTC midnight ms; NaN otherwise. */
function dateMs(v: string): number {
  const d = v.slice(0, 10);
  const ms = Date.parse(`${d}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === d ? ms : Number.NaN;
}

function twoDecimals(n: number): boolean {
  return Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
}

const CORE = [
  'ip_address_details',
  'device_id_details',
  'device_fingerprinting_details',
  'customer_account_login_id_details',
] as const;
const ADDRESS_REQUIRED = ['address', 'city', 'state_region', 'postal_code', 'country'] as const;
const ADDRESS_ALL = [...ADDRESS_REQUIRED, 'address2'] as const;

/** The matching-evidence rules for one set of details (spec 2 §5 'Matching evidence', issue 13). */
function matchingViolations(m: MatchingDetails, lookups: RemedyLookups, prefix: string): RemedyViolation[] {
  const v: RemedyViolation[] = [];
  const at = (key: string, title: string) => v.push({ propertyPath: `${prefix}${key}`, title });
  const has = (key: keyof MatchingDetails) => !blank(m[key]);
  const hasAddress = ADDRESS_ALL.some((k) => has(k));
  if (hasAddress) for (const k of ADDRESS_REQUIRED) if (!has(k)) at(k, M.required);
  if (has('country') && !lookups.countries.has(m.country!.trim().toUpperCase()))
    at('country', 'Unknown country.');
  if (has('ip_address_details') && isIP(m.ip_address_details!.trim()) === 0)
    at('ip_address_details', 'Must be an IPv4 or IPv6 address.');
  if (has('device_id_details') && has('device_fingerprinting_details'))
    at('device_fingerprinting_details', 'Device ID and Device Fingerprint may not both be supplied.');
  if (has('customer_account_login_id_details') && hasAddress)
    at(
      'customer_account_login_id_details',
      'Customer Account Login and Shipping Address may not both be supplied.',
    );
  const elements = CORE.filter((k) => has(k)).length + (hasAddress ? 1 : 0);
  if (elements === 0) at('ip_address_details', 'At least one matching data element is required.');
  else if (elements < 2 || !(has('ip_address_details') || has('device_id_details')))
    at(
      'ip_address_details',
      'Identify at least two matching data elements, one of which must be IP address or Device ID.',
    );
  return v;
}

const norm = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();

function undisputedViolations(
  t: UndisputedTransaction,
  i: number,
  facts: RemedyCaseFacts,
  lookups: RemedyLookups,
  disputed: MatchingDetails,
): RemedyViolation[] {
  const p = `undisputed_transactions[${i}].`;
  const v: RemedyViolation[] = [];
  const at = (key: string, title: string) => v.push({ propertyPath: `${p}${key}`, title });

  // ARN (23-24) or transaction id (15-16), exactly one; a 23-24 character id goes as the ARN.
  const arn = blank(t.historical_arn) ? null : t.historical_arn!.trim();
  const txn = blank(t.historical_transaction_id) ? null : t.historical_transaction_id!.trim();
  if (arn && txn) at('historical_arn', 'Send either an ARN or a transaction id, not both.');
  else if (!arn && !txn) at('historical_transaction_id', M.required);
  if (arn) {
    if (!R.arnLengths.includes(arn.length)) at('historical_arn', M.txnIdLength);
    else if (!/^[A-Za-z0-9]+$/.test(arn)) at('historical_arn', 'Only letters and digits are allowed.');
  }
  if (txn) {
    if (R.arnLengths.includes(txn.length))
      at(
        'historical_transaction_id',
        'An identifier of 23-24 characters is an ARN: send it as historical_arn.',
      );
    else if (!R.txnIdLengths.includes(txn.length)) at('historical_transaction_id', M.txnIdLength);
    else if (!/^[A-Za-z0-9]+$/.test(txn))
      at('historical_transaction_id', 'Only letters and digits are allowed.');
  }

  const amount = t.historical_tran_amount;
  if (!Number.isFinite(amount) || amount < R.minAmount) at('historical_tran_amount', 'Must be at least 1.');
  else if (amount > MONEY_MAX) at('historical_tran_amount', 'Amount is too large.');
  else if (!twoDecimals(amount)) at('historical_tran_amount', 'Must have at most two decimals.');

  if (!lookups.currencies.has(t.historical_tran_currency.trim().toUpperCase()))
    at('historical_tran_currency', blank(t.historical_tran_currency) ? M.required : 'Unknown currency.');

  const window = undisputedDateWindow(facts.date_post);
  const ms = dateMs(t.historical_tran_date);
  if (Number.isNaN(ms)) at('historical_tran_date', 'Must be a valid date.');
  else {
    const post = dateMs(facts.date_post);
    const days = Math.round((post - ms) / DAY);
    if (days < R.minDaysBeforePost || days > R.maxDaysBeforePost)
      at(
        'historical_tran_date',
        `Must be between ${window.from} and ${window.to} (120 to 365 days before the post date).`,
      );
  }

  if (blank(t.merchandise_or_services_description)) at('merchandise_or_services_description', M.required);
  v.push(...shippingViolations(t, p));
  v.push(...matchingViolations(t, lookups, p));
  // Matching evidence matches the disputed transaction: each element given here must equal it there.
  for (const k of [...CORE, ...ADDRESS_ALL]) {
    if (blank(t[k])) continue;
    if (norm(t[k]) !== norm(disputed[k])) at(k, 'Does not match the disputed transaction.');
  }
  return v;
}

function shippingViolations(
  t: {
    merchandise_or_services: string;
    shipping_delivery_status: string;
    tracking_information?: string | null;
  },
  prefix: string,
): RemedyViolation[] {
  const v: RemedyViolation[] = [];
  if (t.merchandise_or_services === 'Merchandise' && blank(t.tracking_information))
    v.push({
      propertyPath: `${prefix}tracking_information`,
      title: 'Tracking number is required for Merchandise.',
    });
  if (t.merchandise_or_services === 'Services') {
    if (t.shipping_delivery_status !== 'O')
      v.push({
        propertyPath: `${prefix}shipping_delivery_status`,
        title: 'Services have the delivery status Other.',
      });
    if (!blank(t.tracking_information))
      v.push({ propertyPath: `${prefix}tracking_information`, title: 'Services have no tracking number.' });
  }
  return v;
}

/** Every violation of a body; empty when it may be submitted. */
export function remedyViolations(
  raw: unknown,
  facts: RemedyCaseFacts,
  lookups: RemedyLookups,
): RemedyViolation[] {
  const shape = shapeViolations(raw);
  if (shape.length) return shape;
  const body = raw as RemedyBody;
  const dl = body.dl;
  const v: RemedyViolation[] = [];
  const at = (propertyPath: string, title: string) => v.push({ propertyPath, title });

  if (dl.acquirer_case_number.trim() !== facts.case_no)
    at('acquirer_case_number', 'Must be the case number of the disputed case.');
  if (Number.isNaN(dateMs(dl.merchandise_or_services_provided_date)))
    at('merchandise_or_services_provided_date', 'Must be a valid date.');
  if (blank(dl.description)) at('description', M.required);
  v.push(...shippingViolations(dl, ''));
  v.push(...matchingViolations(dl.disputed_transaction, lookups, 'disputed_transaction.'));

  if (dl.undisputed_transactions.length !== R.undisputedCount)
    at('undisputed_transactions', 'Two undisputed transactions are required.');
  const ids = new Set<string>();
  dl.undisputed_transactions.slice(0, 5).forEach((t, i) => {
    v.push(...undisputedViolations(t, i, facts, lookups, dl.disputed_transaction));
    const id = norm(t.historical_arn) || norm(t.historical_transaction_id);
    if (id && ids.has(id))
      at(
        `undisputed_transactions[${i}].${blank(t.historical_arn) ? 'historical_transaction_id' : 'historical_arn'}`,
        'The undisputed transactions must be different transactions.',
      );
    if (id) ids.add(id);
  });

  body.doc.forEach((d, i) => {
    if (blank(d.name)) at(`doc[${i}].name`, M.required);
  });
  return v;
}
