import { Type, type Static } from '@sinclair/typebox';
import { Id, Int32, Offset, Pagination, Text } from './common';

/** ERT records page (spec 3 §2): list, export, single and bulk resolve, bulk creation by CSV. */
export const ERT_MESSAGES = {
  resolved: 'ERT successfully resolved.',
  bulkResolved: (n: number) => `${n} ERT(s) successfully resolved.`,
  created: (n: number) => `${n} ERT(s) successfully added.`,
  alreadyResolved: 'This ERT is already resolved.',
  proofTypeMismatch:
    'The proof file is not of the type it was uploaded as. Upload a PDF, PNG, JPEG or CSV file.',
} as const;
export const ERT_CSV_MAX_ROWS = 10_000;
export const ERT_CSV_MAX_BYTES = 5 * 1024 * 1024;
/** Status of a resolved ERT. */
export const ERT_RESOLVED_STATUS = 3;

export const ERT_SORT_FIELDS = [
  'id',
  'merchant',
  'status',
  'level',
  'created_by',
  'date_created',
  'date_resolved',
] as const;
export const ErtListQuery = Type.Object({
  search: Type.Optional(Text({ maxLength: 100 })),
  sort_by: Type.Optional(Type.Union(ERT_SORT_FIELDS.map((f) => Type.Literal(f)))),
  sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Int32({ minimum: 0, maximum: 999 })),
});
export type ErtListQuery = Static<typeof ErtListQuery>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
export const ErtRow = Type.Object({
  id: Type.Integer(),
  cb_id: Type.Integer(),
  merchant: Type.String(),
  merchant_id: Type.Integer(),
  status: Type.String(),
  status_id: Type.Integer(),
  level: Type.String(),
  content: Type.String(),
  created_by: Nullable(Type.String()),
  resolved_by: Nullable(Type.String()),
  date_created: Type.String(),
  date_approved: Nullable(Type.String()),
  date_resolved: Nullable(Type.String()),
  date_archived: Nullable(Type.String()),
});
export type ErtRow = Static<typeof ErtRow>;
export const ErtRowList = Type.Object({ data: Type.Array(ErtRow), pagination: Pagination });
export type ErtRowList = Static<typeof ErtRowList>;

export const ErtIdParams = Type.Object({ id: Id({ maximum: Number.MAX_SAFE_INTEGER }) });
export const ErtFileBody = Type.Object(
  { s3_key: Text({ minLength: 1, maxLength: 512 }), filename: Type.Optional(Text({ maxLength: 255 })) },
  { additionalProperties: false },
);
export type ErtFileBody = Static<typeof ErtFileBody>;
/** Single resolve: the proof file is optional. */
export const ErtResolveBody = Type.Object(
  {
    s3_key: Type.Optional(Text({ minLength: 1, maxLength: 512 })),
    filename: Type.Optional(Text({ maxLength: 255 })),
  },
  { additionalProperties: false },
);
export type ErtResolveBody = Static<typeof ErtResolveBody>;
export const ErtUploadQuery = Type.Object({
  filename: Type.Optional(Text({ minLength: 1, maxLength: 255 })),
});
export const ErtBulkAnswer = Type.Object({
  message: Type.String(),
  count: Type.Integer(),
  ids: Type.Array(Type.Integer()),
});
export type ErtBulkAnswer = Static<typeof ErtBulkAnswer>;
export const ErtResolveAnswer = Type.Object({ message: Type.String(), data: ErtRow });
export type ErtResolveAnswer = Static<typeof ErtResolveAnswer>;
/** Bulk creation CSV: case id and content; bulk resolve CSV: ERT ids. */
export const ERT_TEMPLATES = {
  create: { filename: 'ert-upload-template.csv', header: ['Case ID', 'Content'] },
  resolve: { filename: 'ert-resolve-template.csv', header: ['ID'] },
} as const;
