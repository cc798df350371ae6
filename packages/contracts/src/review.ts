import { Type, type Static } from '@sinclair/typebox';
import { CaseDetail } from './cases';
import { Id, ID_LIST_PATTERN, ID_STRING_PATTERN, ListResponse, SmallId, Text } from './common';

/**
 * QC review, admin review, case marks and ERTs (spec 2 §2.4, §2.5, §4, §7).
 * The paths the spec does not show are ours: POST|PUT|PATCH /cm/cases/patch
 * (mark / release), GET /cm/cases/qc/next, PATCH /cm/cases/qc/dnr and GET /cm/review/actions.
 */

/** The QC queue: cases whose representment was uploaded and awaits QC (status 3 DocUploaded). */
export const QC_QUEUE_STATUS = 3;
/** QC action ids of `PATCH /cm/cases/qc`: approve sends the representment to transport; DNR marks a loss. */
export const QC_ACTION = { Approve: 1, DoNotRepresent: 2 } as const;
export const QC_MESSAGES = {
  empty: 'No more cases for QC Review.',
  approved: (id: number) => `Case ${id} was successfully approved. Loading next...`,
  dnr: (id: number) => `Case ${id} was successfully moved to Do Not Represent. Loading next...`,
  failed: 'An error occurred processing this request. Please try again later.',
  ertSaved: 'ERT record successfully saved.',
  ertFailed: 'An error occurred while adding this ERT record.',
} as const;

/** Admin review action ids of `PATCH /cm/review` (each may carry a note). */
export const REVIEW_ACTIONS = [
  { id: 1, name: 'Mark Reviewed' },
  { id: 2, name: 'Move to Do Not Represent' },
  { id: 3, name: 'Revert to New' },
] as const;
export const REVIEW_ACTION = { Reviewed: 1, DoNotRepresent: 2, RevertToNew: 3 } as const;
export const REVIEW_MESSAGES = {
  reviewed: 'The selected row(s) has been reviewed.',
  failed: 'There was an issue. Please try again.',
} as const;

/** Who is working on a case and since when (a mark expires after CASE_MARK_MINUTES). */
export const CASE_MARK_MINUTES = 30;
export const CaseMark = Type.Object({
  type: Type.String(),
  status: Type.Integer(),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  marked_at: Type.String(),
});
export type CaseMark = Static<typeof CaseMark>;

export const CASE_MARK_TYPES = ['upload', 'qc-review', 'review', 'view'] as const;
export type CaseMarkType = (typeof CASE_MARK_TYPES)[number];

/**
 * `POST|PUT|PATCH /cm/cases/patch`: ids joined by commas, a status and a type.
 * Type upload: 16 marks (upload being prepared), 1 releases. Other types: 1
 * marks (opening a case), 2 releases (leaving the view, sign-out).
 */
export const CaseMarkBody = Type.Object(
  {
    ids: Type.String({ pattern: ID_LIST_PATTERN, maxLength: 2000 }),
    status: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(16)]),
    type: Type.Union(CASE_MARK_TYPES.map((t) => Type.Literal(t))),
  },
  { additionalProperties: false },
);
export type CaseMarkBody = Static<typeof CaseMarkBody>;
export const CaseMarkResult = Type.Object({
  message: Type.String(),
  data: Type.Array(Type.Object({ id: Type.Integer(), mark: Type.Union([CaseMark, Type.Null()]) })),
});
export type CaseMarkResult = Static<typeof CaseMarkResult>;

/** `GET /cm/cases/qc/{id|next}`: the case detail with its mark. */
export const QcCase = Type.Composite([
  CaseDetail,
  Type.Object({ mark: Type.Union([CaseMark, Type.Null()]) }),
]);
export type QcCase = Static<typeof QcCase>;
export const QcCaseParams = Type.Object({
  id: Type.Union([Type.Literal('next'), Type.String({ pattern: ID_STRING_PATTERN })]),
});

/**
 * `PATCH /cm/cases/qc`. Action 2 (Do Not Represent) is refused here with a
 * pointer to `PATCH /cm/cases/qc/dnr`, the call the gateway keeps behind the
 * tenant flag QC_DNR_FLAG.
 */
export const QcActionBody = Type.Object(
  {
    id: Id(),
    action_id: Type.Union([Type.Literal(QC_ACTION.Approve), Type.Literal(QC_ACTION.DoNotRepresent)]),
  },
  { additionalProperties: false },
);
export type QcActionBody = Static<typeof QcActionBody>;

/** The tenant flag that offers (web) and allows (gateway) Do Not Represent in QC review (spec 2 §2.4). */
export const QC_DNR_FLAG = 'CASE_QC_REVIEW.DO_NOT_REPRESENT';
/**
 * `PATCH /cm/cases/qc/dnr` (the spec's 'do-not-represent call', path not
 * shown there): moves a QC case to Do Not Represent (status 4) as a loss.
 */
export const QcDnrBody = Type.Object({ id: Id() }, { additionalProperties: false });
export type QcDnrBody = Static<typeof QcDnrBody>;

/** `PATCH /cm/review`: actions by id with an optional note, or assignment (assign_id null unassigns). */
export const ReviewPatchBody = Type.Object(
  {
    cases: Type.Array(
      Type.Object(
        {
          id: Id(),
          action_id: Type.Optional(Id()),
          note: Type.Optional(Type.Union([Text({ maxLength: 2000 }), Type.Null()])),
          assign_id: Type.Optional(Type.Union([Id(), Type.Null()])),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);
export type ReviewPatchBody = Static<typeof ReviewPatchBody>;

export const ReviewAction = Type.Object({ id: Type.Integer(), name: Type.String() });
export const ReviewActionList = Type.Object({ data: Type.Array(ReviewAction) });

/** `GET /cm/review/{id}`: the case with its review notes. */
export const ReviewNote = Type.Object({
  id: Type.Integer(),
  action_id: Type.Integer(),
  action: Type.String(),
  note: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  date_created: Type.String(),
});
export const ReviewCase = Type.Composite([CaseDetail, Type.Object({ reviews: Type.Array(ReviewNote) })]);
export type ReviewCase = Static<typeof ReviewCase>;

/** ERT (spec 2 §2.4): defaults status_id 1, is_active true, level_id 1, type_id 7. */
export const ERT_DEFAULTS = { status_id: 1, is_active: true, level_id: 1, type_id: 7 } as const;
export const Ert = Type.Object({
  id: Type.Integer(),
  cb_id: Type.Integer(),
  content: Type.String(),
  status_id: Type.Integer(),
  is_active: Type.Boolean(),
  level_id: Type.Integer(),
  type_id: Type.Integer(),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  merchant_id: Type.Integer(),
  created_by: Type.Union([Type.String(), Type.Null()]),
  date_created: Type.String(),
});
export type Ert = Static<typeof Ert>;
export const ErtCaseParams = Type.Object({ caseId: Id() });
export const ErtBody = Type.Object(
  {
    content: Text({ minLength: 1, maxLength: 10000 }),
    status_id: Type.Optional(SmallId()),
    is_active: Type.Optional(Type.Boolean()),
    level_id: Type.Optional(SmallId()),
    type_id: Type.Optional(SmallId()),
    user_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    merchant_id: Type.Optional(Id()),
  },
  { additionalProperties: false },
);
export type ErtBody = Static<typeof ErtBody>;
export const ErtList = ListResponse(Ert);
export type ErtList = Static<typeof ErtList>;
export const ErtResult = Type.Object({ message: Type.String(), data: Ert });
export type ErtResult = Static<typeof ErtResult>;
