import { Type, type Static } from '@sinclair/typebox';
import { CaseRow } from './cases';
import { ListResponse, Offset, Text } from './common';

/*
 * Case comments (spec 2 §2.3 'Add Comment', issue 12). The spec names no path
 * for them, so they follow the case calls of spec 2 §7:
 *
 *   GET  /cm/cases/{id}/comments   start, limit (default 20, newest first)
 *        -> { data: CaseComment[], pagination: { total, limit, start } }
 *   POST /cm/cases/{id}/comments   { comment }  (1..2000 characters, no NUL)
 *        -> { message, data: [CaseRow], comment: CaseComment }
 *
 * Both are scoped like every case call (a case outside the caller's scope is a
 * 404); the POST is a case write: refused for read-only users (403), recorded
 * in the case history, and it sets the case row's `comments` to its text.
 */
export const CASE_COMMENT_MAX = 2000;

export const CaseComment = Type.Object({
  id: Type.Integer(),
  case_id: Type.Integer(),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  /** Who wrote it (username), as the history shows it. */
  user: Type.String(),
  text: Type.String(),
  created_at: Type.String(),
});
export type CaseComment = Static<typeof CaseComment>;

export const CaseCommentQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type CaseCommentQuery = Static<typeof CaseCommentQuery>;

export const CaseCommentList = ListResponse(CaseComment);
export type CaseCommentList = Static<typeof CaseCommentList>;

export const CaseCommentBody = Type.Object(
  { comment: Text({ minLength: 1, maxLength: CASE_COMMENT_MAX }) },
  { additionalProperties: false },
);
export type CaseCommentBody = Static<typeof CaseCommentBody>;

/** Answer of `POST /cm/cases/{id}/comments`: the case as it is now and the new comment. */
export const CaseCommentWriteResult = Type.Object({
  message: Type.String(),
  data: Type.Array(CaseRow),
  comment: CaseComment,
});
export type CaseCommentWriteResult = Static<typeof CaseCommentWriteResult>;
