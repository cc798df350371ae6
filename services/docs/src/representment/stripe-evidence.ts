import type { BuilderEvidenceAnswers } from '@portal/contracts';
import { HttpError, resolveContextSecret, ServiceClient, systemContext, type Env } from '@portal/core';
import type { EvidenceField } from '@portal/connectors';
import { JobError } from '@portal/jobs';

/**
 * The case builder's answers as Stripe's evidence fields (issue 32). The
 * builder owns the answers (design §13): the transport job asks the builder
 * service for them (a system call, never inside a transaction) and maps them
 * here. Only what the builder really holds is mapped (README 'Connectors',
 * the mapping table); answers with no field of their own, and the Case
 * Comments, go to `uncategorized_text`, labelled. Stripe takes
 * `customer_communication`, `refund_policy` and the other documents as file
 * ids: the compiled PDF (the builder's case summary first) is the file.
 */
export type EvidenceFields = Partial<Record<EvidenceField, string>>;

/**
 * Stripe's limits (the SDK's `DisputeUpdateParams.Evidence`): these fields take at most 20,000
 * characters each, and all fields together at most 150,000.
 */
export const LONG_TEXT_FIELDS: ReadonlySet<EvidenceField> = new Set([
  'access_activity_log',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'duplicate_charge_explanation',
  'product_description',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'uncategorized_text',
]);
export const FIELD_MAX_CHARS = 20_000;
export const TOTAL_MAX_CHARS = 150_000;
const CUT_NOTE = ' […] (shortened to Stripe’s limit; the full text is in the attached PDF)';

/** Answers with no Stripe field of their own, labelled in `uncategorized_text` (catalogue name → label). */
const UNCATEGORIZED: ReadonlyArray<readonly [string, string]> = [
  ['order_id', 'Order ID'],
  ['trans_id', 'Transaction ID'],
  ['phone', 'Customer phone'],
  ['quantity', 'Quantity'],
  ['date_delivered', 'Date delivered'],
  ['manifest', 'Shipping manifest'],
  ['avs_result', 'AVS result'],
  ['cvv_result', 'CVV result'],
  ['business_name', 'Business name'],
  ['business_contact', 'Business contact'],
  ['business_phone', 'Business phone'],
  ['event_name', 'Event'],
  ['event_date', 'Event date'],
  ['ticket_no', 'Ticket number'],
  ['seat', 'Seat'],
  ['passenger_name', 'Passenger'],
  ['departure', 'Departure'],
  ['destination', 'Destination'],
  ['booking_ref', 'Booking reference'],
  ['cancellation_date', 'Cancellation date'],
  ['cs_notes', 'Customer service notes'],
  ['chat_logs', 'Chat logs'],
  ['case_history', 'Case history'],
];

const joined = (parts: Array<string | undefined>, sep = ', ') => parts.filter(Boolean).join(sep) || undefined;

/** The evidence fields of a case: its builder answers (when it has any) and the Case Comments. */
export function evidenceFieldsOf(
  answers: BuilderEvidenceAnswers | null,
  comment: string | null,
): EvidenceFields {
  const a = answers?.answers ?? {};
  const product = answers?.product;
  const productText = product ? joined([product.name, product.description ?? undefined], ': ') : undefined;
  const serviceDates = a.date_service_start
    ? joined([a.date_service_start, a.date_service_end], ' to ')
    : (a.event_date ?? a.travel_date);
  const activity = joined(
    [
      a.customer_login && `Customer account login: ${a.customer_login}`,
      a.ip_address && `IP address: ${a.ip_address}`,
      a.device_id && `Device ID: ${a.device_id}`,
      a.device_fingerprint && `Device fingerprint: ${a.device_fingerprint}`,
    ],
    '\n',
  );
  const labelled = UNCATEGORIZED.filter(([name]) => a[name]).map(([name, label]) => `${label}: ${a[name]}`);
  const fields: EvidenceFields = {
    customer_name: joined([a.fname, a.lname], ' '),
    customer_email_address: a.email,
    customer_purchase_ip: a.ip_address,
    billing_address: joined([
      a.billing_address,
      a.billing_city,
      a.billing_state,
      a.billing_zip,
      a.billing_country_id,
    ]),
    shipping_address: joined([
      a.shipping_address,
      a.shipping_city,
      a.shipping_state,
      a.shipping_zip,
      a.country_id,
    ]),
    shipping_carrier: a.carrier,
    shipping_tracking_number: a.tracking_no,
    shipping_date: a.date_shipped,
    product_description: a.product_description ?? a.service_description ?? productText,
    service_date: serviceDates,
    refund_policy_disclosure: a.refund_policy,
    access_activity_log: activity,
    uncategorized_text: joined([comment?.trim() || undefined, ...labelled], '\n\n'),
  };
  return withinLimits(fields);
}

/** Stripe's limits applied: each long field to 20,000 characters, then the whole to 150,000. */
export function withinLimits(fields: EvidenceFields): EvidenceFields {
  const out: EvidenceFields = {};
  for (const [name, value] of Object.entries(fields) as Array<[EvidenceField, string | undefined]>) {
    if (!value) continue;
    out[name] = LONG_TEXT_FIELDS.has(name) ? cut(value, FIELD_MAX_CHARS) : value;
  }
  let total = Object.values(out).reduce((n, v) => n + v.length, 0);
  // Over the whole limit: the uncategorized text (the least specific) gives way first, then the rest.
  const order: EvidenceField[] = [
    'uncategorized_text',
    ...[...LONG_TEXT_FIELDS].filter((f) => f !== 'uncategorized_text'),
  ];
  for (const name of order) {
    if (total <= TOTAL_MAX_CHARS) break;
    const value = out[name];
    if (!value) continue;
    const keep = Math.max(0, value.length - (total - TOTAL_MAX_CHARS));
    const shorter = keep > CUT_NOTE.length ? cut(value, keep) : '';
    total -= value.length - shorter.length;
    if (shorter) out[name] = shorter;
    else delete out[name];
  }
  return out;
}

function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  return value.slice(0, max - CUT_NOTE.length) + CUT_NOTE;
}

/**
 * The builder's answers of a case, asked of the builder service as the docs service itself (a system
 * context, as the services' other internal calls). Unreachable: the job tries again later.
 */
export async function fetchBuilderAnswers(
  env: Env,
  tenant: string,
  caseId: number,
  requestId: string,
): Promise<BuilderEvidenceAnswers> {
  const client = new ServiceClient(env.BUILDER_SERVICE_URL, resolveContextSecret(env), 10_000);
  try {
    return await client.get<BuilderEvidenceAnswers>(
      `/builder/internal/evidence-answers/${caseId}`,
      systemContext(tenant, requestId),
    );
  } catch (cause) {
    const permanent = cause instanceof HttpError && cause.statusCode < 500;
    throw new JobError(
      permanent
        ? 'The case builder’s answers could not be read for Stripe’s evidence fields.'
        : 'The case builder could not be reached for the evidence fields; we will try again shortly.',
      { permanent, cause },
    );
  }
}
