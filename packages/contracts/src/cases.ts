import { Type, type Static } from '@sinclair/typebox';
import { Id, IdList, Int32, ListResponse, Money, Offset, Text } from './common';
import { WinOddsScore } from './win-odds';

/** Case status ids (spec 2 §3); 16 is transient while an upload is prepared. */
export const CASE_STATUS = {
  New: 1,
  Working: 2,
  DocUploaded: 3,
  DoNotRepresent: 4,
  Expired: 5,
  DocCompiling: 6,
  DocCompiled: 7,
  TransportReady: 8,
  TransportProcessing: 9,
  TransportCompleted: 10,
  UploadPreparing: 16,
} as const;
/** Status groups: 1 New, 2 In Progress (1 and 2 are the open cases), 3 Completed, 4 Expired, 5 Do Not Represent. */
export const STATUS_GROUP = { New: 1, InProgress: 2, Completed: 3, Expired: 4, DoNotRepresent: 5 } as const;
export const VERDICT = {
  WillNotRepresent: 1,
  DoNotRepresent: 2,
  VerdictPending: 3,
  Win: 4,
  Loss: 5,
  Pending: 6,
} as const;
export const CYCLE = { First: 1, Second: 2, Retrieval: 9 } as const;

/** Tabs / filter groups of the case grids (spec 2 §2.1). */
export const FILTER_GROUPS = [
  'working_cases',
  'new_cases',
  'expiring_cases',
  'primary_case_expire',
  'assigned',
  'dnr',
  'expired',
  'in_progress',
  'completed',
] as const;

/** Columns `sort_by` accepts on `GET /cm/cases` (every grid column but Flag, Document and Actions). */
export const CASE_SORT_COLUMNS = [
  'id',
  'case_no',
  'order_id',
  'cycle',
  'cycle_id',
  'mid',
  'mid_alias',
  'cc_type',
  'cc_bin',
  'cc_no',
  'reason_code',
  'reason_category',
  'date_post',
  'date_due',
  'date_trans',
  'date_completed',
  'date_created',
  'dispute_amt',
  'dispute_currency',
  'trans_amt',
  'trans_currency',
  'status_group',
  'status_group_id',
  'status_id',
  'verdict',
  'arn',
  'merchant_name',
  'assigned_user',
  'processor_invoice_id',
] as const;
export type CaseSortColumn = (typeof CASE_SORT_COLUMNS)[number];

const AmountOperator = Type.Union(['<', '<=', '=', '>', '>='].map((op) => Type.Literal(op)));
const StringList = Type.Array(Text({ maxLength: 200 }), { maxItems: 100 });

/**
 * `GET /cm/cases` (and the exports): paging, sorting, search, tabs and every
 * filter of spec 2 §7. Date ranges are 'yyyy-MM-dd|yyyy-MM-dd'. `limit=0`
 * answers only `pagination.total`. `search` is a case-insensitive prefix match
 * on CB ID, case number, order id, ARN, MID, card last four and merchant name.
 */
export const CaseListQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 50 })),
  sort_by: Type.Optional(Text({ maxLength: 64 })),
  sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  search: Type.Optional(Text({ maxLength: 200 })),
  /** The merchant switcher: narrows to this merchant's subtree (must be in scope). */
  client_id: Type.Optional(Id()),
  merchant_id: Type.Optional(Id()),
  filter_group: Type.Optional(Type.Union(FILTER_GROUPS.map((g) => Type.Literal(g)))),
  /** Which grid asks (chargebacks, case-management, ...); informational. */
  intent: Type.Optional(Text({ maxLength: 64 })),
  primary_case_due_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  cycle: Type.Optional(IdList()),
  cycle_id: Type.Optional(IdList()),
  is_fraud: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  status_group_id: Type.Optional(IdList()),
  status_id: Type.Optional(IdList()),
  card_type_id: Type.Optional(IdList()),
  reason_code_id: Type.Optional(IdList()),
  verdict_id: Type.Optional(IdList()),
  currency_id: Type.Optional(IdList()),
  source_id: Type.Optional(IdList()),
  assigned_user_id: Type.Optional(Id()),
  is_flagged: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  /** MID numbers, comma-separated. */
  mid: Type.Optional(Text({ maxLength: 2000 })),
  /** Descriptor text (exact, case-insensitive) or descriptor id. */
  descriptor: Type.Optional(Text({ maxLength: 200 })),
  case_no: Type.Optional(Text({ maxLength: 100 })),
  order_id: Type.Optional(Text({ maxLength: 100 })),
  arn: Type.Optional(Text({ maxLength: 100 })),
  cc_bin: Type.Optional(Text({ maxLength: 8 })),
  cc_last_four: Type.Optional(Text({ maxLength: 4 })),
  /** Post date range. */
  date_range: Type.Optional(Text({ maxLength: 40 })),
  due_date_range: Type.Optional(Text({ maxLength: 40 })),
  trans_date_range: Type.Optional(Text({ maxLength: 40 })),
  completed_date_range: Type.Optional(Text({ maxLength: 40 })),
  dispute_amt: Type.Optional(Money()),
  dispute_amt_operator: Type.Optional(AmountOperator),
  trans_amt: Type.Optional(Money()),
  trans_amt_operator: Type.Optional(AmountOperator),
  // Exports only.
  export_type: Type.Optional(Type.Union([Type.Literal('page'), Type.Literal('all')])),
  export_total: Type.Optional(Int32({ minimum: 0 })),
  headers: Type.Optional(StringList),
  'headers[]': Type.Optional(StringList),
  /** 'accessor:label' entries. */
  header_labels: Type.Optional(StringList),
  'header_labels[]': Type.Optional(StringList),
});
export type CaseListQuery = Static<typeof CaseListQuery>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const NullableString = Nullable(Type.String());
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const AssignedUser = Type.Object({
  id: Type.Integer(),
  fname: Type.String(),
  lname: Type.String(),
  username: Type.String(),
});
export const CaseFlag = Type.Object({
  id: Type.Integer(),
  is_flagged: Type.Boolean(),
  comment: NullableString,
});
export type CaseFlag = Static<typeof CaseFlag>;

/** What the grid may do with a case, derived from its status (spec 2 §3). */
export const CaseProperties = Type.Object({
  is_doc_available: Type.Boolean(),
  is_assign_user_enabled: Type.Boolean(),
  is_upload_representment_enabled: Type.Boolean(),
  is_revert_dnr_enabled: Type.Boolean(),
  is_dnr_enabled: Type.Boolean(),
  can_remedy: Type.Boolean(),
  upload_representment_tooltip: NullableString,
});

/** A chargeback list row (spec 1 §3.4 plus the case fields the grids show). */
export const CaseRow = Type.Object(
  {
    id: Type.Integer(),
    case_no: Type.String(),
    order_id: NullableString,
    cycle: Type.String(),
    cycle_id: Type.Integer(),
    mid: Type.String(),
    mid_id: Type.Integer(),
    mid_alias: NullableString,
    descriptor: NullableString,
    cc_type: Type.String(),
    card_type_id: Type.Integer(),
    cc_bin: NullableString,
    cc_no: NullableString,
    cc_last_four: NullableString,
    reason_code: Type.String(),
    reason_code_id: Type.Integer(),
    reason_category: Type.String(),
    /** The reason code's description (the PDF export cuts it to 10 words). */
    reason_code_message: Type.String(),
    is_fraud: Type.Boolean(),
    date_post: Type.String(),
    date_due: Type.String(),
    date_trans: NullableString,
    date_completed: NullableString,
    date_created: Type.String(),
    dispute_amt: Type.Number(),
    dispute_currency: Type.String(),
    dispute_currency_id: Type.Integer(),
    trans_amt: NullableNumber,
    trans_currency: NullableString,
    status_id: Type.Integer(),
    status: Type.String(),
    status_group: Type.String(),
    status_group_id: Type.Integer(),
    verdict: Type.String(),
    verdict_id: Type.Integer(),
    processor: NullableString,
    processor_invoice_id: NullableString,
    is_credit: Type.Boolean(),
    is_guaranteed: Type.Boolean(),
    arn: NullableString,
    comments: NullableString,
    merchant_id: Type.Integer(),
    merchant_name: Type.String(),
    /** The partner company id of the case's merchant, or of its parent (the partner). */
    partner_company_id: NullableString,
    flag: Type.Union([CaseFlag, Type.Null()]),
    assigned_user: Type.Union([AssignedUser, Type.Null()]),
    properties: CaseProperties,
    /** Issuer documents of the case (merchants with feature 1); each opens with GET /docs/issuer-doc/{caseId}/{id}. */
    issuer_docs: Type.Array(Type.Object({ id: Type.Integer(), date_created: Type.String() })),
    /** Win probability and expected value of an open case (issue 33); null when closed or not scored yet. */
    win_odds: Type.Optional(Type.Union([WinOddsScore, Type.Null()])),
  },
  { $id: 'CaseRow' },
);
export type CaseRow = Static<typeof CaseRow>;

/** `GET /cm/cases/{id}`: the row plus the detail fields of spec 2 §3. */
export const CaseDetail = Type.Composite([
  CaseRow,
  Type.Object({
    merchant: Type.Object({ id: Type.Integer(), business_name: Type.String() }),
    document: Type.Union([Type.Object({ id: Type.Integer() }), Type.Null()]),
    source: NullableString,
  }),
]);
export type CaseDetail = Static<typeof CaseDetail>;

export const CaseList = ListResponse(CaseRow);
export type CaseList = Static<typeof CaseList>;

export const CaseIdParams = Type.Object({ id: Id() });
export const CaseFlagParams = Type.Object({
  id: Id(),
  flagId: Id(),
});

/** `PATCH /cm/cases/{id}/edit`: verdict only, or the full edit (spec 2 §5). */
export const CaseEditBody = Type.Object(
  {
    verdict_id: Id(),
    processor_invoice_id: Type.Optional(Type.Union([Text({ maxLength: 100 }), Type.Null()])),
    case_amt: Type.Optional(Money()),
    reason_code_id: Type.Optional(Id()),
    currency_id: Type.Optional(Id()),
  },
  { additionalProperties: false },
);
export type CaseEditBody = Static<typeof CaseEditBody>;

/** `PUT /cm/cases/edit`: bulk verdict. */
export const CaseBulkEditBody = Type.Object({
  cases: Type.Array(Type.Object({ id: Id(), verdict_id: Id() }), { minItems: 1, maxItems: 1000 }),
});
export type CaseBulkEditBody = Static<typeof CaseBulkEditBody>;

/** `PATCH /cm/cases/{id}`: a status change (4 DNR, 1 revert, ...) or an assignment (user_id null unassigns). */
export const CasePatchBody = Type.Object(
  {
    status_id: Type.Optional(Id()),
    user_id: Type.Optional(Type.Union([Id(), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CasePatchBody = Static<typeof CasePatchBody>;

/** `PUT /cm/cases`: bulk assign/unassign (items with user_id) or bulk DNR/revert (items with status_id). */
export const CaseBulkPatchBody = Type.Object({
  cases: Type.Array(
    Type.Object(
      {
        id: Id(),
        status_id: Type.Optional(Id()),
        user_id: Type.Optional(Type.Union([Id(), Type.Null()])),
      },
      { additionalProperties: false },
    ),
    { minItems: 1, maxItems: 1000 },
  ),
});
export type CaseBulkPatchBody = Static<typeof CaseBulkPatchBody>;

/** `PATCH /cm/cases/ui/status`: bulk status patch (representment statuses). */
export const CaseStatusPatchBody = Type.Object({
  cases: Type.Array(Type.Object({ id: Id(), status_id: Id() }), { minItems: 1, maxItems: 1000 }),
});
export type CaseStatusPatchBody = Static<typeof CaseStatusPatchBody>;

/** `POST /cm/cases/{id}/flag`. */
export const CaseFlagBody = Type.Object({
  flag: Type.Optional(Type.Boolean({ default: true })),
  comment: Type.Optional(Type.Union([Text({ maxLength: 2000 }), Type.Null()])),
});
/** `PATCH /cm/cases/{id}/flag/{flagId}`. */
export const CaseFlagPatchBody = Type.Object({
  is_flagged: Type.Boolean(),
  comment: Type.Optional(Type.Union([Text({ maxLength: 2000 }), Type.Null()])),
});
/** `PUT /cm/cases/flag`: bulk flag/unflag. */
export const CaseBulkFlagBody = Type.Object({
  flags: Type.Array(
    Type.Object({
      case_id: Id(),
      is_flagged: Type.Boolean(),
      comment: Type.Optional(Type.Union([Text({ maxLength: 2000 }), Type.Null()])),
    }),
    { minItems: 1, maxItems: 1000 },
  ),
});

/** Answer of every case write: the cases as they are now. */
export const CaseWriteResult = Type.Object({ message: Type.String(), data: Type.Array(CaseRow) });
export type CaseWriteResult = Static<typeof CaseWriteResult>;

export const CaseHistoryQuery = Type.Object({
  start: Type.Optional(Offset()),
  /** No default limit: all rows (spec 2 §7). */
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
});
export const CaseHistoryRow = Type.Object({
  id: Type.Integer(),
  timestamp: Type.String(),
  /** Who acted (username), as shown in the Case History grid. */
  user: Type.String(),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  /** Set while impersonating: the signed-in admin who acted as `user`. */
  actor_id: Type.Union([Type.Integer(), Type.Null()]),
  actor_username: NullableString,
  action: Type.String(),
});
export const CaseHistoryList = ListResponse(CaseHistoryRow);
export type CaseHistoryList = Static<typeof CaseHistoryList>;
export type CaseHistoryRow = Static<typeof CaseHistoryRow>;

/** `GET /cm/cases/reports/cases-status-totals`. */
export const StatusTotals = Type.Object({
  data: Type.Array(
    Type.Object({ status_group_id: Type.Integer(), status_group: Type.String(), count: Type.Integer() }),
  ),
  total: Type.Integer(),
});
export type StatusTotals = Static<typeof StatusTotals>;

/**
 * The 24 columns of the chargebacks export (spec 1 §9): accessor and default
 * label. `headers[]` picks and orders accessors, `header_labels[]`
 * ('accessor:label') renames them.
 */
export const CASE_EXPORT_COLUMNS: ReadonlyArray<{ accessor: string; label: string }> = [
  { accessor: 'merchant_name', label: 'Merchant' },
  { accessor: 'date_due', label: 'Due Date' },
  { accessor: 'verdict', label: 'Outcome' },
  { accessor: 'id', label: 'CB ID' },
  { accessor: 'case_no', label: 'Case Number' },
  { accessor: 'order_id', label: 'Order ID' },
  { accessor: 'cycle', label: 'Cycle' },
  { accessor: 'mid', label: 'MID' },
  { accessor: 'mid_alias', label: 'Mid Alias' },
  { accessor: 'cc_type', label: 'Card Type' },
  { accessor: 'reason_code', label: 'Reason Code' },
  { accessor: 'reason_category', label: 'Reason Category' },
  { accessor: 'date_post', label: 'Post Date' },
  { accessor: 'dispute_amt', label: 'Dispute Amt' },
  { accessor: 'dispute_currency', label: 'Dispute Currency' },
  { accessor: 'date_trans', label: 'Trans. Date' },
  { accessor: 'trans_amt', label: 'Trans. Amt' },
  { accessor: 'trans_currency', label: 'Trans. Currency' },
  { accessor: 'cc_no', label: 'Card Number' },
  { accessor: 'status_group', label: 'Status' },
  { accessor: 'arn', label: 'ARN' },
  { accessor: 'date_completed', label: 'Completed Date' },
  { accessor: 'cc_bin', label: 'CC BIN' },
  { accessor: 'assigned_user', label: 'Assigned' },
];
