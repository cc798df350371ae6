import { Type, type Static } from '@sinclair/typebox';
import { Id, ListResponse, Money, Offset } from './common';

/**
 * Bulk close (auto-accept, spec 2 §2.9) and auto-refund rules for alerts
 * (spec 2 §5): submit criteria (a pending job with its preview count),
 * confirm (queues the background job) or cancel; lists sorted by id desc.
 */
export const BULK_JOB_NAMES = { autoAccept: 'case.bulk-close', autoRefund: 'case.auto-refund' } as const;
export const BULK_JOB_STATES = ['pending', 'confirmed', 'running', 'done', 'failed', 'cancelled'] as const;

/** Texts of spec 2 §4, §5 and §8 for both panels. */
export const BULK_MESSAGES = {
  submitted: 'Your request has been submitted for processing.',
  affects: (n: number) => `This will affect ${n} record(s).`,
  noRecords: 'No records will be affected. Please try different criteria.',
  successTitle: 'Success',
  success: 'Successfully submitted job',
  errorTitle: 'Error',
  confirmError: 'Error confirming job',
  noUser: 'No authenticated user',
  invalidAmount: 'Invalid amount entered.',
  maxBelowMin: 'The maximum value cannot be lower than the minimum value.',
  updated: (n: number) => `${n} records updated.`,
  toUpdate: (date: string, email: string, n: number) => `${date}, ${email}, ${n} records to update!`,
} as const;

const amounts = {
  amt_from: Money({ multipleOf: 0.01 }),
  amt_to: Money({ multipleOf: 0.01 }),
  currency_id: Id(),
  /** The merchant switcher's merchant (must be in scope); default the user's whole scope. */
  merchant_id: Type.Optional(Id()),
  /** Sent by the web app; the server uses the signed-in user. */
  user_id: Type.Optional(Id()),
};

/**
 * POST /cm/cases/process/autoaccept: criteria (submit: all four required,
 * spec 2 §5) or `{id, is_confirmed}` (1 confirm, 0 cancel the pending job).
 * One flat object: the service tells the two apart and names missing fields.
 */
export const AutoAcceptBody = Type.Object({
  amt_from: Type.Optional(amounts.amt_from),
  amt_to: Type.Optional(amounts.amt_to),
  currency_id: Type.Optional(Id()),
  cycle_id: Type.Optional(Id()),
  reason_code_id: Type.Optional(Id()),
  /** Only the cases whose expected value of fighting is below zero (issue 33, win odds). */
  not_worth_fighting: Type.Optional(Type.Boolean()),
  merchant_id: amounts.merchant_id,
  user_id: amounts.user_id,
  id: Type.Optional(Id()),
  is_confirmed: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
});
export type AutoAcceptBody = Static<typeof AutoAcceptBody>;

export const BulkJobConfirm = Type.Object({
  is_confirmed: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  user_id: Type.Optional(Id()),
});
export type BulkJobConfirm = Static<typeof BulkJobConfirm>;

/** POST /cm/svc/alerts/auto-refund: all five criteria required (spec 2 §5). */
export const AutoRefundSubmit = Type.Object({
  ...amounts,
  source_id: Id(),
  card_type_id: Id(),
  mid_descriptor_id: Id(),
});
export type AutoRefundSubmit = Static<typeof AutoRefundSubmit>;

export const BulkJobListQuery = Type.Object({
  merchant_id: Type.Optional(Id()),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999, default: 999 })),
});
export type BulkJobListQuery = Static<typeof BulkJobListQuery>;

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

export const BulkJob = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  state: Type.String(),
  merchant_id: NullableInt,
  user_id: NullableInt,
  username: NullableString,
  amt_from: Type.Number(),
  amt_to: Type.Number(),
  currency_id: Type.Integer(),
  currency: Type.String(),
  cycle_id: NullableInt,
  cycle: NullableString,
  reason_code_id: NullableInt,
  reason_code: NullableString,
  source_id: NullableInt,
  source: NullableString,
  card_type_id: NullableInt,
  card_type: NullableString,
  mid_descriptor_id: NullableInt,
  mid_descriptor: NullableString,
  /** Kept to the cases not worth fighting (issue 33). */
  not_worth_fighting: Type.Optional(Type.Boolean()),
  /** The preview count at submission (what the confirmation dialog shows). */
  preview_num: Type.Integer(),
  /** Records changed by the run (0 until it ran). */
  records_num: Type.Integer(),
  date_created: Type.String(),
  date_confirmed: NullableString,
  date_run_end: NullableString,
  /** The background job's id (its status screen). */
  job_id: NullableString,
  message: NullableString,
});
export type BulkJob = Static<typeof BulkJob>;
export const BulkJobList = ListResponse(BulkJob);
export type BulkJobList = Static<typeof BulkJobList>;
export const BulkJobIdParams = Type.Object({ id: Id() });
