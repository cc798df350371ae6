import { Type, type Static } from '@sinclair/typebox';
import { Id, ListResponse, Offset, SmallId, Text } from './common';

/**
 * Pre-chargeback alerts (spec 2 §2.11, §3, §4, §7 'Alerts'): the list and
 * its exports, the service level, outcomes, descriptor-to-MID mapping,
 * history, marking and completing.
 */

/** Alerts service levels (spec 2 §9): 2 (Self) lets the merchant work its alerts. */
export const ALERT_SERVICE_LEVEL = { Basic: 1, Self: 2, Full: 3, Pro: 5 } as const;
/** Outcomes 1-3 are refunds and need refund_id, order_id and customer_name; 6 needs a case id. */
export const ALERT_REFUND_OUTCOMES: readonly number[] = [1, 2, 3];
export const ALERT_CASE_OUTCOME = 6;
/** Default date range of the alerts grid: the last 7 days (spec 2 §9). */
export const ALERTS_DEFAULT_DAYS = 7;

/** Columns `sort_by` accepts on `GET /cm/svc/alerts` (every grid column but Actions). */
export const ALERT_SORT_COLUMNS = [
  'alert_id',
  'account',
  'source',
  'order_id',
  'trans_amount',
  'currency',
  'trans_date',
  'cc_num',
  'cc_type',
  'descriptor',
  'mid',
  'alert_date',
  'expiration_date',
  'completed_date',
  'completed_by',
  'outcome',
  'status',
] as const;
export type AlertSortColumn = (typeof ALERT_SORT_COLUMNS)[number];

/**
 * `GET /cm/svc/alerts` and its exports: paging, sort, search (prefix of the
 * alert id, order id, card last four or descriptor), the merchant switcher
 * (merchant_id, must be in scope), the descriptor filter and the alert date
 * range (default the last 7 days; future dates refused).
 */
export const AlertListQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 50 })),
  sort_by: Type.Optional(Type.Union(ALERT_SORT_COLUMNS.map((c) => Type.Literal(c)))),
  sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  search: Type.Optional(Text({ maxLength: 200 })),
  merchant_id: Type.Optional(Id()),
  client_id: Type.Optional(Id()),
  /** Descriptor text (exact) or an alert descriptor id; empty = All Descriptors. */
  descriptor: Type.Optional(Text({ maxLength: 200 })),
  date_range: Type.Optional(Text({ maxLength: 40 })),
  // Exports only.
  export_type: Type.Optional(Type.Union([Type.Literal('page'), Type.Literal('all')])),
});
export type AlertListQuery = Static<typeof AlertListQuery>;

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

export const AlertRow = Type.Object({
  alert_id: Type.Integer(),
  merchant_id: Type.Integer(),
  account: Type.String(),
  source: Type.String(),
  source_id: Type.Integer(),
  order_id: NullableString,
  trans_amount: Type.Number(),
  currency: Type.String(),
  trans_date: Type.String(),
  cc_num: Type.String(),
  cc_type: Type.String(),
  descriptor: Type.String(),
  descriptor_id: Type.Integer(),
  mid: NullableString,
  mid_id: NullableInt,
  alert_date: Type.String(),
  expiration_date: Type.String(),
  completed_date: NullableString,
  completed: Type.Boolean(),
  completed_by: NullableString,
  /** Open, Marked or Completed. */
  status: Type.String(),
  outcome: NullableString,
  outcome_id: NullableInt,
  refund_id: NullableString,
  customer_name: NullableString,
  case_id: NullableInt,
  /** The merchant's alerts service level (2 = Self unlocks the actions). */
  service_level_id: Type.Integer(),
});
export type AlertRow = Static<typeof AlertRow>;
export const AlertList = ListResponse(AlertRow);
export type AlertList = Static<typeof AlertList>;

export const AlertMerchantQuery = Type.Object({
  merchant_id: Type.Optional(Id()),
  client_id: Type.Optional(Id()),
});
export type AlertMerchantQuery = Static<typeof AlertMerchantQuery>;

export const AlertServiceLevel = Type.Object({
  merchant_id: NullableInt,
  service_level_id: Type.Integer(),
  name: Type.String(),
});
export type AlertServiceLevel = Static<typeof AlertServiceLevel>;

/** `GET /cm/merchants/{id}/express-resolve`: what the embedded alerts frame needs (alerts iframe feature). */
export const ExpressResolve = Type.Object({
  ers_client_id: Type.String(),
  token: Type.String(),
  identity: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  session_token: Type.String(),
});
export type ExpressResolve = Static<typeof ExpressResolve>;

export const AlertOutcome = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** refund (needs refund_id, order_id, customer_name), case (needs case_id) or other. */
  kind: Type.String(),
});
export type AlertOutcome = Static<typeof AlertOutcome>;
export const AlertOutcomeList = Type.Object({ data: Type.Array(AlertOutcome) });
export type AlertOutcomeList = Static<typeof AlertOutcomeList>;

export const DescriptorMapping = Type.Object({
  id: Type.Integer(),
  merchant_id: Type.Integer(),
  descriptor: Type.String(),
  mid: NullableString,
  mid_id: NullableInt,
});
export type DescriptorMapping = Static<typeof DescriptorMapping>;
export const DescriptorMappingList = ListResponse(DescriptorMapping);

export const DescriptorMappingQuery = Type.Object({
  merchant_id: Type.Optional(Id()),
  client_id: Type.Optional(Id()),
  descriptor: Type.Optional(Text({ maxLength: 200 })),
  /** 1: only descriptors without a MID. */
  unmapped: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 999 })),
});
export type DescriptorMappingQuery = Static<typeof DescriptorMappingQuery>;

/** `POST /cm/svc/alerts/descriptors/mapping?merchant_id` (Select MID). */
export const DescriptorMappingBody = Type.Object({
  client_id: Type.Optional(Id()),
  mid_id: Id(),
  descriptor: Text({ minLength: 1, maxLength: 200 }),
  /** Sent by the web app; the server uses the signed-in user. */
  user_id: Type.Optional(Id()),
});
export type DescriptorMappingBody = Static<typeof DescriptorMappingBody>;
export const DescriptorMappingResult = Type.Object({
  mapping: DescriptorMapping,
  /** Alerts that now show the MID. */
  alerts: Type.Integer(),
});
export type DescriptorMappingResult = Static<typeof DescriptorMappingResult>;

export const AlertHistoryQuery = Type.Object({
  alert_id: Id(),
  merchant_id: Type.Optional(Id()),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
});
export type AlertHistoryQuery = Static<typeof AlertHistoryQuery>;
export const AlertHistoryItem = Type.Object({
  id: Type.Integer(),
  date: Type.String(),
  username: NullableString,
  action: Type.String(),
  old_outcome_name: NullableString,
  new_outcome_name: NullableString,
});
export type AlertHistoryItem = Static<typeof AlertHistoryItem>;
export const AlertHistoryList = ListResponse(AlertHistoryItem);
export type AlertHistoryList = Static<typeof AlertHistoryList>;

/** `POST /cm/svc/alerts/outcome` (Mark Outcome). */
export const AlertOutcomeBody = Type.Object({
  alert_id: Id(),
  outcome_id: SmallId(),
  user_id: Type.Optional(Id()),
  refund_id: Type.Optional(Text({ maxLength: 100 })),
  order_id: Type.Optional(Text({ maxLength: 100 })),
  customer_name: Type.Optional(Text({ maxLength: 200 })),
  case_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
});
export type AlertOutcomeBody = Static<typeof AlertOutcomeBody>;

/** `POST /cm/svc/alerts/complete` (Confirm Completion). */
export const AlertCompleteBody = Type.Object({ alert_id: Id(), user_id: Type.Optional(Id()) });
export type AlertCompleteBody = Static<typeof AlertCompleteBody>;
export const AlertWriteResult = Type.Object({ alert: AlertRow });
export type AlertWriteResult = Static<typeof AlertWriteResult>;

/** `GET /cm/svc/descriptors`: the descriptor type-ahead of the alerts grid. */
export const AlertDescriptorQuery = Type.Object({
  merchant_id: Type.Optional(Id()),
  client_id: Type.Optional(Id()),
  search: Type.Optional(Text({ maxLength: 200 })),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 10 })),
});
export type AlertDescriptorQuery = Static<typeof AlertDescriptorQuery>;
export const AlertDescriptor = Type.Object({ id: Type.Integer(), descriptor: Type.String() });
export const AlertDescriptorList = ListResponse(AlertDescriptor);
export type AlertDescriptorList = Static<typeof AlertDescriptorList>;

/** Export columns of alerts.csv / alerts.xlsx, in grid order. */
export const ALERT_EXPORT_COLUMNS: readonly { accessor: keyof AlertRow; label: string }[] = [
  { accessor: 'account', label: 'Account' },
  { accessor: 'alert_id', label: 'Alert ID' },
  { accessor: 'source', label: 'Source' },
  { accessor: 'order_id', label: 'Order ID' },
  { accessor: 'trans_amount', label: 'Trans Amt' },
  { accessor: 'currency', label: 'Currency' },
  { accessor: 'trans_date', label: 'Trans. Date' },
  { accessor: 'cc_num', label: 'CC #' },
  { accessor: 'cc_type', label: 'CC Type' },
  { accessor: 'descriptor', label: 'Descriptor' },
  { accessor: 'mid', label: 'MID' },
  { accessor: 'alert_date', label: 'Alert Date' },
  { accessor: 'status', label: 'Status' },
  { accessor: 'expiration_date', label: 'Expiration Date' },
  { accessor: 'completed_by', label: 'Completed By' },
  { accessor: 'outcome', label: 'Outcome' },
];
