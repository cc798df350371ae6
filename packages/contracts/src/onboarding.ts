import { Type, type Static } from '@sinclair/typebox';
import { DateRange, Id, Int32, Offset, Pagination, SmallId, Text } from './common';

/** Onboarding (spec 3 §2, §3, §5, §7, §8): CSV files of new merchants or MIDs, reviewed then finalized. */
export const ONBOARDING_MESSAGES = {
  recordUpdated: 'Successfully updated record.',
  success: 'Your action was a success!',
  error: 'There was an error, try again.',
  singleCsv: 'Only a single CSV file is allowed.',
  uploadFailed: 'An error occurred while trying to upload this CSV file. Please try again later.',
  uploaded: 'CSV successfully uploaded.',
  generic: 'An error occurred. Please try again later.',
  emptyCsv: 'The CSV file must contain at least one row.',
  failing: 'Fix every failing cell before finalizing.',
  finalized: 'This onboarding file is finalized and can no longer be changed.',
  /** Not in the spec (issue 29): an unfinalized upload discarded from the history or the edit screen. */
  discarded: 'Onboarding file discarded.',
  discardConfirm: (name: string) =>
    `Discard the upload '${name}' and all of its rows? This cannot be undone.`,
} as const;

/** Onboarding status_id: 1 open, 2 finalizing (the job is queued or running), 3 finalized. */
export const ONBOARDING_STATUS = { open: 1, finalizing: 2, finalized: 3 } as const;
/** Record status_id: 1 normal, 2 deleted. */
export const RECORD_STATUS = { normal: 1, deleted: 2 } as const;
export const ONBOARDING_RECORD_LIMIT = 999;
/** Largest onboarding CSV: 100,000 rows are refused with a clear message rather than half-read. */
export const ONBOARDING_MAX_ROWS = 20_000;
export const ONBOARDING_MAX_BYTES = 10 * 1024 * 1024;

export const OnboardingType = Type.Union([Type.Literal('merchant'), Type.Literal('mid')]);
export type OnboardingType = Static<typeof OnboardingType>;

/** Columns of each template, by label (CSV header) and name (the cell key). */
export const MERCHANT_COLUMNS = [
  { label: 'Business Name', name: 'business_name', required: true },
  { label: 'DBA', name: 'dba', required: false },
  { label: 'Alias', name: 'alias', required: false },
  { label: 'Service Level', name: 'service_level', required: true },
  { label: 'Country', name: 'country', required: true },
  { label: 'Partner Company ID', name: 'partner_company_id', required: false },
  { label: 'Business address', name: 'business_address', required: false },
  { label: 'City', name: 'city', required: false },
  { label: 'State', name: 'state', required: false },
  { label: 'Zip', name: 'zip', required: false },
  { label: 'Business phone', name: 'business_phone', required: false },
  { label: 'First name', name: 'first_name', required: true },
  { label: 'Last name', name: 'last_name', required: true },
  { label: 'Email', name: 'email', required: true },
  { label: 'Username', name: 'username', required: true },
  { label: 'Phone', name: 'phone', required: false },
] as const;

export const MID_COLUMNS = [
  { label: 'MID', name: 'mid', required: true },
  { label: 'Alias', name: 'alias', required: false },
  { label: 'Descriptor', name: 'descriptor', required: false },
  { label: 'Service Level', name: 'service_level', required: false },
  { label: 'MCC', name: 'mcc', required: false },
] as const;

export const ONBOARDING_TEMPLATES = {
  merchant: {
    filename: 'merchant-onboarding-template.csv',
    sample: [
      'Acme Outdoor LLC',
      'Acme Outdoor',
      'acme-outdoor',
      'Basic',
      'US',
      'P-1001',
      '1 Main St',
      'Austin',
      'TX',
      '78701',
      '+1 512 555 0100',
      'Jane',
      'Doe',
      'jane.doe@example.com',
      'jane.doe',
      '+1 512 555 0101',
    ],
  },
  mid: {
    filename: 'mid-onboarding-template.csv',
    sample: ['4455667788', 'Main store', 'ACME*OUTDOOR', 'Basic', '5941'],
  },
} as const;

export const OnboardingUploadQuery = Type.Object({
  filename: Type.Optional(Text({ minLength: 1, maxLength: 255 })),
});

export const OnboardingCreateBody = Type.Object(
  {
    s3_key: Text({ minLength: 1, maxLength: 512 }),
    type: OnboardingType,
    merchant_id: Id(),
    filename: Type.Optional(Text({ maxLength: 255 })),
  },
  { additionalProperties: false },
);
export type OnboardingCreateBody = Static<typeof OnboardingCreateBody>;
export const OnboardingCreated = Type.Object({ id: Type.Integer(), message: Type.String() });
export type OnboardingCreated = Static<typeof OnboardingCreated>;

export const OnboardingFilesQuery = Type.Object({
  date_range: Type.Optional(DateRange),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Int32({ minimum: 0, maximum: 999 })),
});
export type OnboardingFilesQuery = Static<typeof OnboardingFilesQuery>;

export const OnboardingFile = Type.Object({
  id: Type.Integer(),
  merchant: Type.Object({ id: Type.Integer(), business_name: Type.String() }),
  user: Type.Object({ name: Type.String(), last_name: Type.String() }),
  onboarding_type: Type.Object({ id: Type.Integer(), name: Type.String() }),
  status_id: Type.Integer(),
  date_created: Type.String(),
  finalized_date: Type.Union([Type.String(), Type.Null()]),
  rows_in_upload: Type.Integer(),
  message: Type.Union([Type.String(), Type.Null()]),
});
export type OnboardingFile = Static<typeof OnboardingFile>;
export const OnboardingFileList = Type.Object({ data: Type.Array(OnboardingFile), pagination: Pagination });
export type OnboardingFileList = Static<typeof OnboardingFileList>;

export const OnboardingCell = Type.Object({ value: Type.String(), err_messages: Type.Array(Type.String()) });
export type OnboardingCell = Static<typeof OnboardingCell>;
export const OnboardingRecord = Type.Object({
  id: Type.Integer(),
  row_num: Type.Integer(),
  status: Type.Object({ value: Type.Integer() }),
  cells: Type.Record(Type.String(), OnboardingCell),
});
export type OnboardingRecord = Static<typeof OnboardingRecord>;

export const OnboardingRecordsQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Int32({ minimum: 0, maximum: ONBOARDING_RECORD_LIMIT })),
});
export const OnboardingRecords = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  type: OnboardingType,
  status_id: Type.Integer(),
  date_created: Type.String(),
  date_updated: Type.String(),
  finalized_date: Type.Union([Type.String(), Type.Null()]),
  uploaded_by: Type.String(),
  message: Type.Union([Type.String(), Type.Null()]),
  columns: Type.Array(Type.Object({ label: Type.String(), name: Type.String() })),
  total_failing_validation: Type.Integer(),
  data: Type.Array(OnboardingRecord),
  pagination: Pagination,
});
export type OnboardingRecords = Static<typeof OnboardingRecords>;

export const OnboardingRecordPatch = Type.Object(
  {
    id: Id({ maximum: Number.MAX_SAFE_INTEGER }),
    status_id: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
    cells: Type.Optional(
      Type.Record(Text({ maxLength: 64, pattern: '^[a-z_]{1,64}$' }), Text({ maxLength: 500 }), {
        maxProperties: 32,
      }),
    ),
  },
  { additionalProperties: false },
);
export const OnboardingRecordsPatch = Type.Object(
  { records: Type.Array(OnboardingRecordPatch, { minItems: 1, maxItems: ONBOARDING_RECORD_LIMIT }) },
  { additionalProperties: false },
);
export type OnboardingRecordsPatch = Static<typeof OnboardingRecordsPatch>;
/** `PATCH /cm/onboarding/{id}/records`: the rows still failing validation after the edit. */
export const OnboardingRecordsPatched = Type.Object({
  message: Type.String(),
  total_failing_validation: Type.Integer(),
});
export type OnboardingRecordsPatched = Static<typeof OnboardingRecordsPatched>;

export const OnboardingPatch = Type.Object({ status_id: Type.Literal(3) }, { additionalProperties: false });
export const OnboardingIdParams = Type.Object({ id: Id({ maximum: Number.MAX_SAFE_INTEGER }) });
/** `DELETE /cm/onboarding/{id}`: an open (never finalized) file and its rows are gone. */
export const OnboardingDiscarded = Type.Object({ id: Type.Integer(), message: Type.String() });
export type OnboardingDiscarded = Static<typeof OnboardingDiscarded>;
export const OnboardingStatusAnswer = Type.Object({
  id: Type.Integer(),
  status_id: SmallId(),
  message: Type.String(),
});
export type OnboardingStatusAnswer = Static<typeof OnboardingStatusAnswer>;
