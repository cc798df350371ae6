import type Stripe from 'stripe';
import type { CardBrand, DisputeStage, ProcessorDispute } from '../processor';

/**
 * Stripe's dispute -> the portal's dispute (the README's Connectors section
 * states this table). The network's own reason code wins when Stripe gives
 * it; else Stripe's reason stands for the network code below on each brand.
 */
const REASON_CODES: Record<string, Record<CardBrand, string>> = {
  fraudulent: { visa: '10.4', mastercard: '4837', amex: 'F29', discover: 'UA02' },
  unrecognized: { visa: '10.4', mastercard: '4863', amex: 'F29', discover: 'AA' },
  debit_not_authorized: { visa: '10.4', mastercard: '4837', amex: 'F24', discover: 'UA02' },
  duplicate: { visa: '12.6', mastercard: '4834', amex: 'P08', discover: 'DP' },
  incorrect_account_details: { visa: '12.4', mastercard: '4834', amex: 'P01', discover: 'AT' },
  bank_cannot_process: { visa: '11.3', mastercard: '4808', amex: 'A08', discover: 'AT' },
  insufficient_funds: { visa: '11.2', mastercard: '4808', amex: 'A08', discover: 'AT' },
  credit_not_processed: { visa: '13.6', mastercard: '4860', amex: 'C02', discover: 'CD' },
  product_not_received: { visa: '13.1', mastercard: '4855', amex: 'C08', discover: 'RG' },
  product_unacceptable: { visa: '13.3', mastercard: '4853', amex: 'C31', discover: 'RM' },
  subscription_canceled: { visa: '13.2', mastercard: '4841', amex: 'C28', discover: 'RM' },
  customer_initiated: { visa: '13.7', mastercard: '4853', amex: 'C31', discover: 'RM' },
  check_returned: { visa: '13.3', mastercard: '4853', amex: 'C31', discover: 'RM' },
  noncompliant: { visa: '12.6', mastercard: '4834', amex: 'P08', discover: 'DP' },
  general: { visa: '13.3', mastercard: '4853', amex: 'C31', discover: 'RM' },
};

const BRANDS: Record<string, CardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  amex: 'amex',
  american_express: 'amex',
  discover: 'discover',
};

/** Stripe's status -> stage. */
export function stageOf(status: string): DisputeStage {
  switch (status) {
    case 'won':
      return 'won';
    case 'lost':
      return 'lost';
    case 'warning_closed':
    case 'prevented':
      return 'closed';
    case 'under_review':
    case 'warning_under_review':
    case 'appeal_under_review':
      return 'review';
    default:
      return 'open';
  }
}

const date = (unix: number | null | undefined) => (unix ? new Date(unix * 1000) : null);

export function toProcessorDispute(d: Stripe.Dispute): ProcessorDispute {
  const charge = typeof d.charge === 'object' && d.charge !== null ? d.charge : null;
  const cardDetails = d.payment_method_details?.card;
  const rawBrand = (
    cardDetails?.brand ??
    charge?.payment_method_details?.card?.brand ??
    'unknown'
  ).toLowerCase();
  const brand = BRANDS[rawBrand] ?? null;
  const last4 = charge?.payment_method_details?.card?.last4 ?? null;
  const paymentIntent =
    typeof d.payment_intent === 'string' ? d.payment_intent : (d.payment_intent?.id ?? null);
  const orderRef = charge?.metadata?.order_id ?? paymentIntent;
  return {
    disputeId: d.id,
    chargeId: typeof d.charge === 'string' ? d.charge : (charge?.id ?? null),
    amountMinor: d.amount,
    currency: d.currency.toUpperCase(),
    brand,
    rawBrand,
    last4: last4 && /^[0-9]{4}$/.test(last4) ? last4 : null,
    networkReasonCode: cardDetails?.network_reason_code ?? d.network_reason_code ?? null,
    reason: d.reason,
    fallbackReasonCode: brand ? (REASON_CODES[d.reason] ?? REASON_CODES.general!)[brand] : null,
    inquiry: d.status.startsWith('warning_') || cardDetails?.case_type === 'inquiry',
    stage: stageOf(d.status),
    rawStatus: d.status,
    createdAt: new Date(d.created * 1000),
    dueBy: date(d.evidence_details?.due_by),
    transactionAt: date(charge?.created),
    isChargeRefundable: d.is_charge_refundable,
    descriptor: charge?.calculated_statement_descriptor ?? charge?.statement_descriptor ?? null,
    orderRef: orderRef ? orderRef.slice(0, 100) : null,
  };
}

/** The dispute events the connector acts on; others are acknowledged and recorded as ignored. */
export const DISPUTE_EVENTS = new Set([
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
]);
