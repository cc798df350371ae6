import {
  DELIVERY_STATUSES,
  REMEDY_MESSAGES as M,
  REMEDY_PROPERTY_LABELS,
  REMEDY_RULES as R,
  splitArnOrTxnId,
  undisputedDateWindow,
  type CaseDetail,
  type MatchingDetails,
  type MerchandiseOrServices,
  type RemedyBody,
  type RemedyDocEntry,
  type RemedyViolation,
  type UndisputedTransaction,
} from '@portal/contracts';

/**
 * The CE 3.0 Remedy Assistant's form (spec 2 §2.8, §4 'Remedy wizard', §5):
 * its state, the per-step rules that enable the primary button, the masks,
 * and the body of POST /cm/cases/{id}/ce. The server checks all of it again.
 */

export type Choice = MerchandiseOrServices | '';

export interface ShippingForm {
  merchOrServ: Choice;
  deliveryStatus: string;
  tracking: string;
  description: string;
}

export interface DetailsForm extends ShippingForm {
  /** yyyy-MM-dd */
  providedDate: string;
}

export interface TxnForm extends ShippingForm {
  arnOrTxnId: string;
  amount: string;
  currency: string;
  /** yyyy-MM-dd */
  date: string;
  orderId: string;
}

export type MatchKey = 'ip' | 'deviceId' | 'fingerprint' | 'login' | 'address';

export interface MatchingForm {
  on: Record<MatchKey, boolean>;
  ip: string;
  deviceId: string;
  fingerprint: string;
  login: string;
  address: string;
  address2: string;
  city: string;
  stateRegion: string;
  postalCode: string;
  country: string;
}

export interface RemedyForm {
  details: DetailsForm;
  txns: [TxnForm, TxnForm];
  /** Undisputed transactions added so far (0-2). */
  added: number;
  matching: MatchingForm;
  certified: boolean;
}

const emptyShipping = (): ShippingForm => ({
  merchOrServ: '',
  deliveryStatus: '',
  tracking: '',
  description: '',
});
export const emptyTxn = (): TxnForm => ({
  ...emptyShipping(),
  arnOrTxnId: '',
  amount: '',
  currency: '',
  date: '',
  orderId: '',
});
export const emptyForm = (): RemedyForm => ({
  details: { ...emptyShipping(), providedDate: '' },
  txns: [emptyTxn(), emptyTxn()],
  added: 0,
  matching: {
    on: { ip: false, deviceId: false, fingerprint: false, login: false, address: false },
    ip: '',
    deviceId: '',
    fingerprint: '',
    login: '',
    address: '',
    address2: '',
    city: '',
    stateRegion: '',
    postalCode: '',
    country: '',
  },
  certified: false,
});

/** Choosing Services sets delivery status Other and clears tracking; clearing the status clears tracking (§4). */
export function withChoice<T extends ShippingForm>(f: T, merchOrServ: Choice): T {
  return merchOrServ === 'Services'
    ? { ...f, merchOrServ, deliveryStatus: 'O', tracking: '' }
    : { ...f, merchOrServ };
}
export function withStatus<T extends ShippingForm>(f: T, deliveryStatus: string): T {
  return deliveryStatus ? { ...f, deliveryStatus } : { ...f, deliveryStatus, tracking: '' };
}

/** Masks: the identifier takes letters and digits only (24 at most); the amount digits and two decimals. */
export function maskTxnId(v: string): string {
  return v.replace(/[^A-Za-z0-9]/g, '').slice(0, 24);
}
export function maskAmount(v: string): string {
  const clean = v.replace(/[^0-9.]/g, '');
  const [int = '', ...rest] = clean.split('.');
  const digits = int.replace(/^0+(?=\d)/, '').slice(0, 10);
  return rest.length ? `${digits}.${rest.join('').slice(0, 2)}` : digits;
}

export type Errors = Record<string, string>;

function shippingErrors(f: ShippingForm, e: Errors) {
  if (!f.merchOrServ) e.merchOrServ = M.required;
  if (!f.deliveryStatus) e.deliveryStatus = M.required;
  if (f.merchOrServ === 'Merchandise' && !f.tracking.trim()) e.tracking = M.required;
  if (!f.description.trim()) e.description = M.required;
}

export function detailsErrors(f: DetailsForm, today: string): Errors {
  const e: Errors = {};
  shippingErrors(f, e);
  if (!f.providedDate) e.providedDate = M.required;
  else if (f.providedDate > today) e.providedDate = 'The date cannot be in the future.';
  return e;
}

export function txnErrors(f: TxnForm, datePost: string, other?: TxnForm): Errors {
  const e: Errors = {};
  const id = f.arnOrTxnId.trim();
  if (!id) e.arnOrTxnId = M.required;
  else if (![...R.txnIdLengths, ...R.arnLengths].includes(id.length)) e.arnOrTxnId = M.txnIdLength;
  else if (other && other.arnOrTxnId.trim().toUpperCase() === id.toUpperCase())
    e.arnOrTxnId = 'This transaction was already added.';
  const amount = Number(f.amount);
  if (!f.amount.trim()) e.amount = M.required;
  else if (!Number.isFinite(amount) || amount < R.minAmount) e.amount = 'The amount must be at least 1.00.';
  if (!f.currency) e.currency = M.required;
  const w = undisputedDateWindow(datePost);
  if (!f.date) e.date = M.required;
  else if (f.date < w.from || f.date > w.to) e.date = `Choose a date between ${w.from} and ${w.to}.`;
  shippingErrors(f, e);
  return e;
}

export function matchingErrors(m: MatchingForm): Errors {
  const e: Errors = {};
  const { on } = m;
  if (!Object.values(on).some(Boolean)) e.any = 'Select at least one matching data element.';
  if (on.ip && !m.ip.trim()) e.ip = M.required;
  if (on.deviceId && !m.deviceId.trim()) e.deviceId = M.required;
  if (on.fingerprint && !m.fingerprint.trim()) e.fingerprint = M.required;
  if (on.login && !m.login.trim()) e.login = M.required;
  if (on.deviceId && on.fingerprint)
    e.fingerprint = 'Device ID and Device Fingerprint may not both be supplied.';
  if (on.login && on.address)
    e.login = 'Customer Account Login and Shipping Address may not both be supplied.';
  if (on.address)
    for (const k of ['address', 'city', 'stateRegion', 'postalCode', 'country'] as const)
      if (!m[k].trim()) e[k] = M.required;
  return e;
}

export const isValid = (e: Errors) => Object.keys(e).length === 0;

/** Dates go as midnight with zero offset (§5). */
const midnightUtc = (d: string) => `${d}T00:00:00.000Z`;
const round2 = (v: string) => Math.round(Number(v) * 100) / 100;
const orNull = (v: string) => (v.trim() ? v.trim() : null);

function matchingDetails(m: MatchingForm): MatchingDetails {
  const { on } = m;
  return {
    ip_address_details: on.ip ? orNull(m.ip) : null,
    device_id_details: on.deviceId ? orNull(m.deviceId) : null,
    device_fingerprinting_details: on.fingerprint ? orNull(m.fingerprint) : null,
    customer_account_login_id_details: on.login ? orNull(m.login) : null,
    address: on.address ? orNull(m.address) : null,
    address2: on.address ? orNull(m.address2) : null,
    city: on.address ? orNull(m.city) : null,
    state_region: on.address ? orNull(m.stateRegion) : null,
    postal_code: on.address ? orNull(m.postalCode) : null,
    country: on.address ? orNull(m.country) : null,
  };
}

export const deliveryName = (code: string) => DELIVERY_STATUSES.find((s) => s.code === code)?.name ?? '';

/** What the remedy reads of the case (GET /cm/cases/{id} answers CaseDetail). */
export type RemedyCase = Pick<
  CaseDetail,
  | 'id'
  | 'case_no'
  | 'date_post'
  | 'date_trans'
  | 'trans_amt'
  | 'trans_currency'
  | 'arn'
  | 'cc_last_four'
  | 'merchant_name'
  | 'mid'
>;

function undisputed(t: TxnForm, matching: MatchingDetails): UndisputedTransaction {
  return {
    ...splitArnOrTxnId(t.arnOrTxnId),
    historical_tran_amount: round2(t.amount),
    historical_tran_currency: t.currency,
    historical_tran_date: midnightUtc(t.date),
    historical_order_id: orNull(t.orderId),
    shipping_delivery_status: t.deliveryStatus as UndisputedTransaction['shipping_delivery_status'],
    tracking_information: t.merchOrServ === 'Merchandise' ? orNull(t.tracking) : null,
    merchandise_or_services: t.merchOrServ as MerchandiseOrServices,
    merchandise_or_services_description: t.description.trim(),
    ...matching,
  };
}

const MATCH_LABELS: Array<[keyof MatchingDetails, string]> = [
  ['ip_address_details', 'IP Address'],
  ['device_id_details', 'Device ID'],
  ['device_fingerprinting_details', 'Device Fingerprint'],
  ['customer_account_login_id_details', 'Customer Account Login'],
  ['address', 'Address'],
  ['address2', 'Address 2'],
  ['city', 'City'],
  ['state_region', 'State/Region'],
  ['postal_code', 'Postal Code'],
  ['country', 'Country'],
];

/** The request body: `dl` for the network, `doc` the pairs of the generated CE document. */
export function buildBody(c: RemedyCase, f: RemedyForm): RemedyBody {
  const matching = matchingDetails(f.matching);
  const d = f.details;
  const txns = f.txns.slice(0, f.added).map((t) => undisputed(t, matching));
  // A pair with an empty value is a heading in the document; pairs without a value are left out.
  const doc: RemedyDocEntry[] = [];
  const head = (name: string) => doc.push({ name, value: '' });
  const add = (name: string, value: string | null | undefined) => {
    if (value && value.trim()) doc.push({ name, value: value.trim() });
  };
  head('Disputed Transaction');
  add('Case Number', c.case_no);
  add('Merchant', `${c.merchant_name} (MID ${c.mid})`);
  add('Card', c.cc_last_four ? `**** ${c.cc_last_four}` : null);
  add('ARN', c.arn);
  add('Transaction Date', c.date_trans?.slice(0, 10));
  add('Transaction Amount', c.trans_amt === null ? null : c.trans_amt.toFixed(2));
  add('Merchandise or Services', d.merchOrServ);
  add('Provided Date', d.providedDate);
  add('Delivery Status', deliveryName(d.deliveryStatus));
  add('Tracking Information', d.merchOrServ === 'Merchandise' ? d.tracking : null);
  add('Description', d.description);
  txns.forEach((t, i) => {
    head(`Undisputed Transaction ${i + 1}`);
    add(t.historical_arn ? 'ARN' : 'Transaction Id', t.historical_arn ?? t.historical_transaction_id);
    add('Amount', `${t.historical_tran_amount.toFixed(2)} ${t.historical_tran_currency}`);
    add('Date', t.historical_tran_date.slice(0, 10));
    add('Order Id', t.historical_order_id);
    add('Merchandise or Services', t.merchandise_or_services);
    add('Delivery Status', deliveryName(t.shipping_delivery_status));
    add('Tracking Information', t.tracking_information);
    add('Description', t.merchandise_or_services_description);
  });
  head('Matching Evidence');
  for (const [k, label] of MATCH_LABELS) add(label, matching[k]);
  return {
    dl: {
      acquirer_case_number: c.case_no,
      merchandise_or_services_provided_date: midnightUtc(d.providedDate),
      description: d.description.trim(),
      merchandise_or_services: d.merchOrServ as MerchandiseOrServices,
      shipping_delivery_status: d.deliveryStatus as RemedyBody['dl']['shipping_delivery_status'],
      tracking_information: d.merchOrServ === 'Merchandise' ? orNull(d.tracking) : null,
      disputed_transaction: {
        arn: c.arn,
        tran_date: c.date_trans ? midnightUtc(c.date_trans.slice(0, 10)) : null,
        tran_amount: c.trans_amt,
        ...matching,
      },
      undisputed_transactions: txns,
    },
    doc,
  };
}

/** 1st, 2nd, 3rd, 4th ... */
export function ordinal(n: number): string {
  const s =
    n % 100 >= 11 && n % 100 <= 13
      ? 'th'
      : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${s}`;
}

export interface ViolationGroups {
  general: Array<{ label: string; title: string }>;
  transactions: Array<{ heading: string; items: Array<{ label: string; title: string }> }>;
}

/** Paths the spec's label list does not name (the disputed transaction's own fields, shipping). */
const OTHER_LABELS: Record<string, string> = {
  acquirer_case_number: 'Case Number',
  merchandise_or_services_provided_date: 'Provided Date',
  description: 'Description',
  merchandise_or_services: 'Merchandise or Services',
  shipping_delivery_status: 'Delivery Status',
  tracking_information: 'Tracking Number',
  undisputed_transactions: 'Undisputed Transactions',
  historical_order_id: 'Order Id',
  doc: 'Document',
};

/** The failure dialog's layout (spec 2 §8): general violations, then a block per undisputed transaction. */
export function groupViolations(violations: readonly RemedyViolation[]): ViolationGroups {
  const general: ViolationGroups['general'] = [];
  const byTxn = new Map<number, Array<{ label: string; title: string }>>();
  for (const v of violations) {
    const m = /^(?:dl\.)?undisputed_transactions\[(\d+)\]\.(\w+)/.exec(v.propertyPath);
    const key = m ? m[2]! : (v.propertyPath.split('.').pop() ?? v.propertyPath);
    const base = REMEDY_PROPERTY_LABELS[key] ?? OTHER_LABELS[key] ?? key.replace(/_/g, ' ');
    // Matching evidence of the disputed transaction itself is named as such beside the per-transaction blocks.
    const label = v.propertyPath.startsWith('disputed_transaction.') ? `Disputed Transaction ${base}` : base;
    if (m) {
      const i = Number(m[1]);
      byTxn.set(i, [...(byTxn.get(i) ?? []), { label, title: v.title }]);
    } else general.push({ label, title: v.title });
  }
  return {
    general,
    transactions: [...byTxn.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, items]) => ({
        // The spec's text, spelling included.
        heading: `-- Errors for ${ordinal(i + 1)} Undistputed Transaction --`,
        items,
      })),
  };
}
