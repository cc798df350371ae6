import { Type, type Static } from '@sinclair/typebox';
import { Text } from './common';

/**
 * The CE 3.0 (Visa Compelling Evidence 3.0) remedy (spec 2 §2.8, §3 'Remedy
 * entities', §4 'Remedy wizard', §5 'Remedy wizard', §7 POST /cm/cases/{id}/ce,
 * §8 'Remedy failure', §9). The schema below documents the body (and feeds
 * OpenAPI); the case service checks a body against it and against the rules of
 * §5 itself, so that every refusal answers `data.violations` as the wizard reads
 * them, not the generic `data.fields`.
 */

export const REMEDY_RULES = {
  /** Undisputed transactions: exactly two. */
  undisputedCount: 2,
  /** Their date lies this many days before the disputed case's post date (inclusive). */
  minDaysBeforePost: 120,
  maxDaysBeforePost: 365,
  /** ARN / transaction id lengths; 23-24 is sent as an ARN, 15-16 as a transaction id. */
  txnIdLengths: [15, 16] as readonly number[],
  arnLengths: [23, 24] as readonly number[],
  minAmount: 1,
  /** After success the wizard shows the success text this long, then closes (ms). */
  successCloseMs: 2000,
  /** The failure dialog hides after (ms). */
  failureHideMs: 10_000,
  /** Client-side validation debounce (ms). */
  validationDebounceMs: 500,
} as const;

/** Eligibility: Visa (card type 1), reason code 10.4, first cycle, not yet defended, tenant feature HAS_REMEDY. */
export const REMEDY_ELIGIBILITY = { cardTypeId: 1, reasonCode: '10.4', cycleId: 1 } as const;
export const REMEDY_FEATURE = 'HAS_REMEDY';

export const MERCHANDISE_OR_SERVICES = ['Merchandise', 'Services'] as const;
export type MerchandiseOrServices = (typeof MERCHANDISE_OR_SERVICES)[number];

/** Delivery status codes (spec 2 §3). */
export const DELIVERY_STATUSES = [
  { code: 'NS', name: 'Not Shipped' },
  { code: 'B', name: 'Backordered' },
  { code: 'IT', name: 'In transit' },
  { code: 'PS', name: 'Partial Shipped' },
  { code: 'S', name: 'Shipped' },
  { code: 'C', name: 'Cancelled' },
  { code: 'SE', name: 'Shipping Exception' },
  { code: 'P', name: 'Picked Up by customer' },
  { code: 'O', name: 'Other' },
  { code: 'D', name: 'Delivered' },
] as const;

const Str = (max: number) => Text({ maxLength: max });
const Opt = (max: number) => Type.Optional(Type.Union([Str(max), Type.Null()]));
const DeliveryCode = Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s.code)));
const MerchOrServ = Type.Union(MERCHANDISE_OR_SERVICES.map((v) => Type.Literal(v)));
/** Dates go as midnight with zero offset (spec 2 §5): 2026-01-31T00:00:00.000Z; a plain date is accepted too. */
export const REMEDY_DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T00:00:00(\\.000)?(Z|\\+00:00))?$';
const RemedyDate = Type.String({ pattern: REMEDY_DATE_PATTERN });

/** Matching data elements (spec 2 §3 'Matching details'); the same on the disputed and each undisputed transaction. */
export const MatchingDetails = Type.Object({
  ip_address_details: Opt(64),
  device_id_details: Opt(200),
  device_fingerprinting_details: Opt(500),
  customer_account_login_id_details: Opt(200),
  address: Opt(200),
  address2: Opt(200),
  city: Opt(100),
  state_region: Opt(100),
  postal_code: Opt(20),
  /** Country code of the countries lookup (e.g. US). */
  country: Opt(3),
});
export type MatchingDetails = Static<typeof MatchingDetails>;

export const UndisputedTransaction = Type.Composite([
  Type.Object({
    /** 23-24 characters. Exactly one of historical_arn and historical_transaction_id. */
    historical_arn: Opt(24),
    /** 15-16 characters. */
    historical_transaction_id: Opt(24),
    historical_tran_amount: Type.Number(),
    /** Currency code of the currencies lookup (e.g. USD). */
    historical_tran_currency: Str(3),
    historical_tran_date: RemedyDate,
    historical_order_id: Opt(100),
    shipping_delivery_status: DeliveryCode,
    tracking_information: Opt(100),
    merchandise_or_services: MerchOrServ,
    merchandise_or_services_description: Str(1000),
  }),
  MatchingDetails,
]);
export type UndisputedTransaction = Static<typeof UndisputedTransaction>;

export const DisputedTransaction = Type.Composite([
  Type.Object({
    arn: Opt(24),
    tran_date: Type.Optional(Type.Union([RemedyDate, Type.Null()])),
    tran_amount: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  }),
  MatchingDetails,
]);
export type DisputedTransaction = Static<typeof DisputedTransaction>;

export const RemedyDl = Type.Object({
  /** The case number of the disputed case. */
  acquirer_case_number: Str(64),
  merchandise_or_services_provided_date: RemedyDate,
  description: Opt(1000),
  merchandise_or_services: MerchOrServ,
  shipping_delivery_status: DeliveryCode,
  tracking_information: Opt(100),
  disputed_transaction: DisputedTransaction,
  undisputed_transactions: Type.Array(UndisputedTransaction),
});
export type RemedyDl = Static<typeof RemedyDl>;

/** Name/value pairs of the generated CE document. */
export const RemedyDocEntry = Type.Object({ name: Str(200), value: Str(2000) });
export type RemedyDocEntry = Static<typeof RemedyDocEntry>;

export const RemedyBody = Type.Object({
  dl: RemedyDl,
  doc: Type.Array(RemedyDocEntry, { minItems: 1, maxItems: 200 }),
});
export type RemedyBody = Static<typeof RemedyBody>;

export const RemedyViolation = Type.Object({ propertyPath: Type.String(), title: Type.String() });
export type RemedyViolation = Static<typeof RemedyViolation>;

/** The failure answer (spec 2 §7, §8): `{message, data: {violations}}`. */
export const RemedyFailure = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  data: Type.Optional(Type.Object({ violations: Type.Array(RemedyViolation) })),
});

export const RemedyAnswer = Type.Object({
  message: Type.String(),
  submission_id: Type.Integer(),
  /** The representment version that holds the CE document (docs service). */
  version: Type.Integer(),
  status_id: Type.Integer(),
  job_id: Type.String(),
});
export type RemedyAnswer = Static<typeof RemedyAnswer>;

export const REMEDY_MESSAGES = {
  invalid: 'The remedy could not be submitted. Please correct the errors below.',
  success: 'Evidence Submitted Successfully',
  submitting: 'Please wait while we submit the evidence.',
  notEligible: 'This case does not qualify for a CE 3.0 Remedy.',
  featureOff: 'The CE 3.0 Remedy is not available for this client.',
  readOnly: 'Read-only users cannot submit a remedy.',
  alreadySubmitted: 'A CE 3.0 Remedy was already submitted for this case.',
  failed: 'An error occurred. Please try again later.',
  dialogTitle: 'Errors Submitting Remedy',
  launcherEligible: 'Eligible for CE3.0 Remedy',
  launcherExplain:
    'This Visa fraud dispute qualifies for Compelling Evidence 3.0: two earlier undisputed transactions of the same cardholder that share matching data with this one can reverse the dispute without documents.',
  launcherButton: 'Start a CE 3.0 Remedy',
  notQualified:
    'Unfortunately this Case does not qualify for the Remedy option. You can still defend the Dispute with documents.',
  titleSuffix: ' or Start CE 3.0 Remedy',
  wizardTitle: 'CE 3.0 Remedy Assistant',
  txnIdLength: 'Field must be 15-16 or 23-24 characters in length.',
  required: 'Required',
} as const;

/** Labels of the property paths in the failure dialog (spec 2 §8). */
export const REMEDY_PROPERTY_LABELS: Record<string, string> = {
  historical_arn: 'ARN',
  historical_tran_amount: 'TXN Amount',
  historical_tran_currency: 'TXN Currency',
  historical_tran_date: 'TXN Date',
  historical_transaction_id: 'TXN Id',
  merchandise_or_services_description: 'Merchandise or Services Description',
  device_id_details: 'Device ID Details',
  device_fingerprinting_details: 'Device Fingerprint Details',
  ip_address_details: 'IP Address Details',
  customer_account_login_id_details: 'Customer Account Login',
  address: 'Address',
  address2: 'Address 2',
  city: 'City',
  state_region: 'State/Region',
  postal_code: 'Postal Code',
  country: 'Country',
};

/** A transaction id of 23-24 characters is an ARN (spec 2 §5). */
export function splitArnOrTxnId(value: string): {
  historical_arn: string | null;
  historical_transaction_id: string | null;
} {
  const v = value.trim();
  return REMEDY_RULES.arnLengths.includes(v.length)
    ? { historical_arn: v, historical_transaction_id: null }
    : { historical_arn: null, historical_transaction_id: v };
}

/** The window of undisputed transaction dates for a post date (yyyy-MM-dd, UTC): [from, to]. */
export function undisputedDateWindow(datePost: string): { from: string; to: string } {
  const post = Date.parse(`${datePost.slice(0, 10)}T00:00:00Z`);
  const day = 86_400_000;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return {
    from: iso(post - REMEDY_RULES.maxDaysBeforePost * day),
    to: iso(post - REMEDY_RULES.minDaysBeforePost * day),
  };
}
