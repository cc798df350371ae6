import { Type, type Static } from '@sinclair/typebox';
import { Id, Offset, Pagination, SmallId, SortOrder, Text } from './common';

/**
 * Merchant hierarchy administration (spec 3 §2, §3, §5, §7): the paged tree,
 * merchant create/edit, MIDs with their history. Bodies are typed loosely
 * (strings may be empty) so the service can answer the spec's own texts
 * ('Field required!', 'Please enter a valid email.') field by field.
 */
export const FIELD_REQUIRED = 'Field required!';
export const INVALID_EMAIL = 'Please enter a valid email.';
export const ROOT_MERCHANT_READONLY = 'The root merchant cannot be edited.';
export const DEFLECTOR_SERVICE_DESK =
  'This deflector cannot be switched off here. Please open an issue with our service desk for further assistance.';
export const MERCHANT_TREE_PAGE = 20;
/** Service levels offered by the forms: 1 Basic, 5 Pro, 3 Full. */
export const FORM_SERVICE_LEVELS = [1, 5, 3] as const;
/** Deflector status ids (spec 3 §3). */
export const DEFLECTOR_STATUS = { inactive: 1, pending: 2, active: 3 } as const;
/** Roles that see MID history (spec 3 §6), compared case-insensitively. */
export const MID_HISTORY_ROLES = ['cb911_admin', 'partner_admin', 'partner_user'] as const;

const Str = (max: number) => Text({ maxLength: max });

/**
 * GET /cm/merchants/list (spec 3 §7) is lazy: a page holds nodes with their counts, not subtrees.
 * `parent_id` pages one merchant's children when the user opens it (its MIDs come from
 * GET /cm/merchants/{id}/mids); `search` and `search_merchant_id` answer the branches from the
 * root down to the matches.
 */
export const MerchantTreeQuery = Type.Object({
  merchant_id: Type.Optional(Id()),
  /** The merchant whose children to page (not with search or search_merchant_id). */
  parent_id: Type.Optional(Id()),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: MERCHANT_TREE_PAGE })),
  sort_order: Type.Optional(SortOrder),
  sort_by: Type.Optional(Type.Literal('business_name')),
  search: Type.Optional(Str(200)),
  search_merchant_id: Type.Optional(Id()),
});
export type MerchantTreeQuery = Static<typeof MerchantTreeQuery>;

/** A MID row of the tree (the rows of GET /cm/merchants/{id}/mids carry these fields). */
export const TreeMid = Type.Object({
  id: Type.Integer(),
  mid: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  status_id: Type.Integer(),
});
export type TreeMid = Static<typeof TreeMid>;

const treeNodeFields = {
  id: Type.Integer(),
  label: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.Object({ id: Type.Integer() }),
  /** Direct child merchants. */
  child_count: Type.Integer({ minimum: 0 }),
  has_children: Type.Boolean(),
  /** The merchant's own MIDs the caller sees. */
  mid_count: Type.Integer({ minimum: 0 }),
};

export interface MerchantTreeNode {
  id: number;
  label: string;
  alias: string | null;
  parentId: number | null;
  status: { id: number };
  child_count: number;
  has_children: boolean;
  mid_count: number;
  /** A hit of the search (or the search_merchant_id merchant). */
  match: boolean;
  /** Children sent with the page: none on a plain page, the branches to the matches on a search. */
  children: MerchantTreeNode[];
}
export const MerchantTreeNode = Type.Recursive(
  (Self) => Type.Object({ ...treeNodeFields, match: Type.Boolean(), children: Type.Array(Self) }),
  { $id: 'MerchantTreeNode' },
);

/**
 * One page of the tree under `root` (with parent_id: that merchant). `pagination.total` counts the
 * root's children, or with a search the matching merchants (a page holds 20 matches, under their
 * ancestors).
 */
export const MerchantTree = Type.Object({
  root: Type.Object(treeNodeFields),
  data: Type.Array(MerchantTreeNode),
  /** Ids from the root down to search_merchant_id (expands the path for mids_tile_clicked). */
  path: Type.Array(Type.Integer()),
  pagination: Pagination,
});
export type MerchantTree = Static<typeof MerchantTree>;

export const ContactBody = Type.Object({
  fname: Type.Optional(Type.Union([Str(100), Type.Null()])),
  lname: Type.Optional(Type.Union([Str(100), Type.Null()])),
  email: Type.Optional(Type.Union([Str(254), Type.Null()])),
  phone_number: Type.Optional(Type.Union([Str(40), Type.Null()])),
});

export const DeflectorChoice = Type.Object({
  id: SmallId(),
  status_id: Type.Optional(SmallId({ maximum: 3 })),
});
export type DeflectorChoice = Static<typeof DeflectorChoice>;

const merchantFields = {
  business_name: Str(200),
  alias: Type.Union([Str(100), Type.Null()]),
  parent_id: Id(),
  partner_company_id: Type.Union([Str(100), Type.Null()]),
  business_address: Str(300),
  city: Str(100),
  state: Str(100),
  zip: Str(20),
  country: Str(3),
  business_phone: Str(40),
  direct_api: Type.Boolean(),
  service_level_id: SmallId(),
  status_id: SmallId(),
  contact: Type.Union([ContactBody, Type.Null()]),
  deflectors: Type.Array(DeflectorChoice, { maxItems: 20 }),
};

export const MerchantCreateBody = Type.Partial(Type.Object(merchantFields), { additionalProperties: false });
export type MerchantCreateBody = Static<typeof MerchantCreateBody>;
export const MerchantPatchBody = MerchantCreateBody;
export type MerchantPatchBody = MerchantCreateBody;
export const MerchantPutBody = Type.Partial(
  Type.Object({ ...merchantFields, parents: Type.Array(Id(), { maxItems: 1 }) }),
  { additionalProperties: false },
);
export type MerchantPutBody = Static<typeof MerchantPutBody>;

export const MerchantSaved = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  id: Type.Integer(),
});
export type MerchantSaved = Static<typeof MerchantSaved>;

export const MidIdParams = Type.Object({ id: Id() });

const midFields = {
  mid: Str(60),
  alias: Str(100),
  merchant_id: Id(),
  status_id: SmallId({ maximum: 3 }),
  descriptor: Str(100),
  processor_id: Type.Integer({ minimum: 0, maximum: 32_767 }),
  service_level_id: SmallId(),
  mid_type_id: Type.Literal(1),
  caid: Type.Union([Str(60), Type.Null()]),
  mcc: Type.Union([Str(4), Type.Null()]),
  wpg_merchant_code: Type.Union([Str(60), Type.Null()]),
  deflectors: Type.Array(DeflectorChoice, { maxItems: 20 }),
  inherit_merchant_deflectors: Type.Boolean(),
};
export const MidCreateBody = Type.Partial(Type.Object(midFields), { additionalProperties: false });
export type MidCreateBody = Static<typeof MidCreateBody>;
export const MidPatchBody = MidCreateBody;
export type MidPatchBody = MidCreateBody;

export const MidDetail = Type.Object({
  id: Type.Integer(),
  mid: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  merchant_id: Type.Integer(),
  merchant_name: Type.String(),
  descriptor: Type.Union([Type.Object({ descriptor: Type.String() }), Type.Null()]),
  processor: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
  mcc: Type.Union([Type.String(), Type.Null()]),
  caid: Type.Union([Type.String(), Type.Null()]),
  service_level: Type.Object({ id: Type.Integer(), name: Type.String() }),
  wpg_merchant_code: Type.Union([Type.String(), Type.Null()]),
  date_created: Type.String(),
  status: Type.Object({ id: Type.Integer() }),
  mid_type_id: Type.Integer(),
  deflectors: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      alias: Type.String(),
      status: Type.Object({ id: Type.Integer() }),
    }),
  ),
  inherit_merchant_deflectors: Type.Boolean(),
});
export type MidDetail = Static<typeof MidDetail>;

export const MidSaved = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: MidDetail,
});
export type MidSaved = Static<typeof MidSaved>;

export const MidHistoryQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 999, default: 5 })),
});
export type MidHistoryQuery = Static<typeof MidHistoryQuery>;

export const MidHistoryRow = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  date_created: Type.String(),
  field: Type.String(),
  old_value: Type.Union([Type.String(), Type.Null()]),
  new_value: Type.Union([Type.String(), Type.Null()]),
});
export type MidHistoryRow = Static<typeof MidHistoryRow>;
export const MidHistory = Type.Object({ data: Type.Array(MidHistoryRow), pagination: Pagination });
export type MidHistory = Static<typeof MidHistory>;

/* ---- Verifi RDR rules (spec 3 §2 'RDR Rule', §5, §7 Rules) ---- */
export const RDR_SAVED = 'Successfully updated Verifi RDR rules.';
export const RDR_FAILED = 'An error occurred updating Verifi RDR rules.';

export const RuleSubject = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.Union([
    Type.Literal('string'),
    Type.Literal('id'),
    Type.Literal('date'),
    Type.Literal('number'),
  ]),
  format: Type.Union([Type.String(), Type.Null()]),
  endpoint: Type.Union([Type.String(), Type.Null()]),
});
export type RuleSubject = Static<typeof RuleSubject>;
export const RuleOperator = Type.Object({ id: Type.Integer(), name: Type.String() });
export type RuleOperator = Static<typeof RuleOperator>;
export const RuleSubjectList = Type.Object({ data: Type.Array(RuleSubject) });
export type RuleSubjectList = Static<typeof RuleSubjectList>;
export const RuleOperatorList = Type.Object({ data: Type.Array(RuleOperator) });
export type RuleOperatorList = Static<typeof RuleOperatorList>;

export const RuleCondition = Type.Object(
  {
    subject_id: Type.Union([SmallId(), Type.Null()]),
    operator_id: Type.Union([SmallId(), Type.Null()]),
    value: Type.Union([Text({ maxLength: 500 }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type RuleCondition = Static<typeof RuleCondition>;
export const RdrRulesBody = Type.Object(
  { rules: Type.Array(RuleCondition, { maxItems: 50 }) },
  { additionalProperties: false },
);
export type RdrRulesBody = Static<typeof RdrRulesBody>;
export const RdrRules = Type.Object({
  data: Type.Array(
    Type.Object({ subject_id: Type.Integer(), operator_id: Type.Integer(), value: Type.String() }),
  ),
});
export type RdrRules = Static<typeof RdrRules>;

/* ---- A merchant's MIDs grid and descriptors (spec 3 §7 Merchants) ---- */
export const MerchantMidsQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 999, default: 50 })),
  search: Type.Optional(Str(200)),
});
export type MerchantMidsQuery = Static<typeof MerchantMidsQuery>;
export const MerchantMidRow = Type.Object({
  id: Type.Integer(),
  mid: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  descriptor: Type.Union([Type.String(), Type.Null()]),
  platform: Type.Union([Type.String(), Type.Null()]),
  mcc: Type.Union([Type.String(), Type.Null()]),
  caid: Type.Union([Type.String(), Type.Null()]),
  service_level: Type.String(),
  status_id: Type.Integer(),
  date_created: Type.String(),
});
export type MerchantMidRow = Static<typeof MerchantMidRow>;
export const MerchantMids = Type.Object({ data: Type.Array(MerchantMidRow), pagination: Pagination });
export type MerchantMids = Static<typeof MerchantMids>;
export const MerchantDescriptors = Type.Object({
  data: Type.Array(Type.Object({ id: Type.Integer(), descriptor: Type.String(), mid_id: Type.Integer() })),
});
export type MerchantDescriptors = Static<typeof MerchantDescriptors>;

/** The MIDs grid's export columns (Merchant Settings grid view), shared by the CSV and Excel files. */
export const MERCHANT_MID_EXPORT_COLUMNS: readonly { label: string; accessor: keyof MerchantMidRow }[] = [
  { label: 'MID', accessor: 'mid' },
  { label: 'Alias', accessor: 'alias' },
  { label: 'Descriptor', accessor: 'descriptor' },
  { label: 'Platform', accessor: 'platform' },
  { label: 'MCC', accessor: 'mcc' },
  { label: 'CAID', accessor: 'caid' },
  { label: 'Service Level', accessor: 'service_level' },
  { label: 'Status', accessor: 'status_id' },
  { label: 'Date Onboarded', accessor: 'date_created' },
];
export const MerchantMidsExportQuery = Type.Object({ search: Type.Optional(Str(200)) });
export type MerchantMidsExportQuery = Static<typeof MerchantMidsExportQuery>;

/**
 * Alert Actions on the MIDs grid: enrol the selected MIDs in alert deflectors
 * (Ethoca, CDRN, RDR...). Each requested deflector starts at Pending
 * Activation on a MID that does not have it on yet; a MID that inherits its
 * merchant's deflectors is left as it is and reported.
 */
export const MID_ALERT_ACTIONS_LIMIT = 500;
export const MidAlertActionsBody = Type.Object(
  {
    mid_ids: Type.Array(Id(), { minItems: 1, maxItems: MID_ALERT_ACTIONS_LIMIT, uniqueItems: true }),
    deflector_ids: Type.Array(SmallId(), { minItems: 1, maxItems: 20, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type MidAlertActionsBody = Static<typeof MidAlertActionsBody>;
export const MidAlertActionsResult = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  updated: Type.Array(Type.Integer()),
  unchanged: Type.Array(Type.Integer()),
  inheriting: Type.Array(Type.Integer()),
});
export type MidAlertActionsResult = Static<typeof MidAlertActionsResult>;
