import { Type, type Static } from '@sinclair/typebox';
import { Id, Money, SmallId, Text } from './common';

/**
 * Ingestion from the feeds (issue 19). POST /cm/alerts (the spec shows no ingestion call): an alert
 * from a network's feed (Ethoca, Verifi CDRN, Visa RDR, an acquirer), sent by
 * the provider's admin API users. Idempotent on (source, source_alert_id):
 * a feed that resends an alert gets the existing id back, created false.
 */
const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2})$';

export const AlertIngestBody = Type.Object(
  {
    /** cases.sources: 1 Ethoca, 2 Verifi CDRN, 3 Visa RDR, 4 Acquirer Feed. */
    source_id: SmallId(),
    /** The network's own id of the alert. */
    source_alert_id: Text({ minLength: 1, maxLength: 100 }),
    merchant_id: Id(),
    descriptor: Text({ minLength: 1, maxLength: 100 }),
    order_id: Type.Optional(Text({ maxLength: 100 })),
    trans_amount: Money(),
    currency_id: Id(),
    trans_date: Type.String({ pattern: DATE }),
    card_type_id: Id(),
    cc_bin: Type.Optional(Type.String({ pattern: '^[0-9]{6,8}$' })),
    cc_last_four: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
    /** When the network raised it; now when absent. */
    alert_date: Type.Optional(Type.String({ pattern: DATE_TIME })),
    expiration_date: Type.String({ pattern: DATE_TIME }),
  },
  { additionalProperties: false },
);
export type AlertIngestBody = Static<typeof AlertIngestBody>;

export const AlertIngestResult = Type.Object({ id: Type.Integer(), created: Type.Boolean() });
export type AlertIngestResult = Static<typeof AlertIngestResult>;

/**
 * POST /cm/cases/import (issue 19; the spec shows no ingestion call): a
 * chargeback from an acquirer's or network's feed, sent by the provider's
 * admin API users. The MID gives the merchant and processor, the reason code
 * the card type and the fraud flag; a new case is New with verdict 'Verdict
 * Pending'. Idempotent on (source, source_case_id).
 */
export const CaseImportBody = Type.Object(
  {
    source_id: SmallId(),
    /** The feed's own id of the chargeback. */
    source_case_id: Text({ minLength: 1, maxLength: 100 }),
    mid_id: Id(),
    case_no: Text({ minLength: 1, maxLength: 40 }),
    cycle_id: SmallId(),
    reason_code_id: Id(),
    date_post: Type.String({ pattern: DATE }),
    date_due: Type.String({ pattern: DATE }),
    date_trans: Type.Optional(Type.String({ pattern: DATE })),
    dispute_amt: Money(),
    dispute_currency_id: Id(),
    order_id: Type.Optional(Text({ maxLength: 100 })),
    arn: Type.Optional(Text({ maxLength: 40 })),
    cc_bin: Type.Optional(Type.String({ pattern: '^[0-9]{6,8}$' })),
    cc_last_four: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
  },
  { additionalProperties: false },
);
export type CaseImportBody = Static<typeof CaseImportBody>;

export const CaseImportResult = Type.Object({ id: Type.Integer(), created: Type.Boolean() });
export type CaseImportResult = Static<typeof CaseImportResult>;

/** A yyyy-MM-dd that names a real day (the pattern lets '2026-02-30' through; Postgres would refuse it). */
export function isCalendarDate(value: string): boolean {
  const t = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === value;
}
