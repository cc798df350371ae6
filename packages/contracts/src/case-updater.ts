import { Type, type Static } from '@sinclair/typebox';
import { Int32, Offset, Pagination, Text } from './common';

/** Case updater (spec 3 §2, §3): a CSV of case ids and verdicts applied in the background. */
export const UPDATER_MAX_ROWS = 200_000;
export const UPDATER_MAX_BYTES = 20 * 1024 * 1024;
export const UPDATER_TEMPLATE = {
  filename: 'case-updater-template.csv',
  header: ['ID', 'Verdict'],
  rows: [
    ['1000000001', 'Win'],
    ['1000000002', 'Loss'],
    ['1000000003', 'Pending'],
  ],
} as const;

/** Per-row outcomes written to the result file. */
export const UPDATER_OUTCOMES = {
  updated: 'Updated',
  unchanged: 'Unchanged (verdict already set)',
  unknownId: 'Unknown case id',
  outOfScope: 'Case not in your scope',
  badVerdict: 'Unknown verdict',
  badId: 'Invalid case id',
  duplicate: 'Duplicate row (case already listed above)',
} as const;

export const UpdaterUploadQuery = Type.Object({
  filename: Type.Optional(Text({ minLength: 1, maxLength: 255 })),
});
export const UpdaterBody = Type.Object(
  {
    s3_key: Text({ minLength: 1, maxLength: 512 }),
    size: Int32({ minimum: 0 }),
    filename: Text({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false },
);
export type UpdaterBody = Static<typeof UpdaterBody>;
/** `POST /cm/cases/updater`: the upload's id; its rows are applied by a background job. */
export const UpdaterCreated = Type.Object({ id: Type.Integer(), message: Type.String() });
export type UpdaterCreated = Static<typeof UpdaterCreated>;

export const UpdaterUpload = Type.Object({
  id: Type.Integer(),
  status_name: Type.String(),
  created_by_user: Type.String(),
  date_created: Type.String(),
  filename: Type.String(),
  rows_total: Type.Integer(),
  rows_applied: Type.Integer(),
  message: Type.Union([Type.String(), Type.Null()]),
  /** A short-lived link to the result file; null until the job has run. */
  loc: Type.Union([Type.String(), Type.Null()]),
});
export type UpdaterUpload = Static<typeof UpdaterUpload>;
export const UpdaterList = Type.Object({ data: Type.Array(UpdaterUpload), pagination: Pagination });
export type UpdaterList = Static<typeof UpdaterList>;
export const UpdaterListQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Int32({ minimum: 0, maximum: 999 })),
});
export type UpdaterListQuery = Static<typeof UpdaterListQuery>;
