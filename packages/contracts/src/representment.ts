import { Type, type Static } from '@sinclair/typebox';
import { Id, Int32, Text } from './common';
import { AcceptedWarnings, PageOps } from './page-ops';

/**
 * Representment upload (spec 2 §2.6, §4 'Upload representment', §5, §7
 * 'Documents', §8 'Upload'):
 *
 *   GET  /docs/representment/upload-link?case_id=&filename=&content_type=   {url, fields}
 *   (the browser posts fields + file to url; fields.key is the s3_key)
 *   POST /docs/representment   {case_id, origin: 2, files[], templates[], qc_review, is_reupload, comment}
 *   POST /docs/representment/transport   {case_id}
 *
 * The docs service checks every stored file itself (type by content, JPEG end
 * marker, PDF loads and is not encrypted, total size and pages within the
 * user's stack config), stores the version's document rows, moves the case to
 * DocCompiling and enqueues the compile job, all in one transaction.
 */
export const REPRESENTMENT_MESSAGES = {
  noFile: 'Please select a file to upload.',
  corruptJpg: 'Selected JPG file is corrupt.',
  corruptPdf: 'Selected PDF file is corrupt or encrypted.',
  tooLarge: (mb: number | string) => `Files exceed ${mb}MB total limit.`,
  tooManyPages: (n: number) => `Images and PDF pages must not exceed ${n} total.`,
  /** Only PDF and JPEG (older dialog text, spec 2 §5). */
  wrongType: (mb: number | string) =>
    `Only single JPG or PDF files of no more than ${mb}MB in total size are allowed.`,
  failed: 'An error occurred. Please try again later.',
  successTitle: 'Success!',
  success: 'The representment was successfully uploaded.',
  tooltipUnavailable: 'Document Unavailable',
  tooltipCompiling: 'Doc(s) compiling...',
  tooltipDownloading: 'Downloading...',
  uploading: 'Uploading files...',
  discardTitle: 'Are you sure?',
  discardText: 'The changes you made in this session will be lost.',
  discard: 'Discard',
  centralArbitration:
    'By continuing this dispute, you accept liability of card network arbitration fees of up to $1000.00+, in the event the case is ruled as a loss.',
  noTemplates: 'No basic templates available.',
  prepareFailed: 'Unable to process the following cases at this time. Please try again later.',
  /** Ours: the server's refusals the spec does not word. */
  notUploadable: (status: string) => `The case cannot take a representment now: it is ${status}.`,
  heldByOther: (username: string) => `The case is open for an upload by ${username}. Please try again later.`,
  foreignKey: 'The file does not belong to this case. Please upload it again.',
  missingFile: 'The file was not found. Please upload it again.',
  unknownTemplate: (id: number) => `Template ${id} was not found.`,
  transportNotReady: (status: string) => `The representment cannot be sent now: the case is ${status}.`,
  transportQueued: 'The representment was sent to transport.',
  /** The compile job gave up (case back to Working; shown in the case history and the QC view). */
  compileFailed: 'The representment could not be compiled. Please upload it again.',
  compileChanged: (filename: string) => `${filename} changed in storage after it was checked.`,
  /** The case history row of a failed compile. */
  compileFailedHistory: (version: number) =>
    `Representment v${version} could not be compiled. Please upload it again.`,
  linkExpired: 'The upload of this file has expired. Please upload it again.',
} as const;

/** 1,048,576 bytes per MB, shown in whole MB (spec 2 §9). */
export const bytesToMb = (bytes: number) => Math.floor(bytes / 1048576);

export const UPLOAD_ORIGIN = 2;
/** One file at a time, up to this size per file (the newer file panel, spec 2 §5). */
export const REPRESENTMENT_FILE_MAX_BYTES = 10485760;
/** Most files and templates in one upload. */
export const REPRESENTMENT_MAX_ITEMS = 50;

/** Statuses a first upload may start from (16: the modal holds the case); a re-upload also from 3 and 7. */
export const UPLOADABLE_STATUSES: readonly number[] = [1, 2, 16];
export const REUPLOADABLE_STATUSES: readonly number[] = [1, 2, 3, 7, 16];

export const UploadLinkQuery = Type.Object({
  case_id: Id(),
  filename: Type.Optional(Text({ minLength: 1, maxLength: 255 })),
  content_type: Type.Optional(Type.Union([Type.Literal('application/pdf'), Type.Literal('image/jpeg')])),
});
export type UploadLinkQuery = Static<typeof UploadLinkQuery>;

export const UploadLinkAnswer = Type.Object({
  url: Type.String(),
  fields: Type.Record(Type.String(), Type.String()),
});
export type UploadLinkAnswer = Static<typeof UploadLinkAnswer>;

export const RepresentmentFileInput = Type.Object(
  {
    s3_key: Text({ minLength: 1, maxLength: 512 }),
    filename: Text({ minLength: 1, maxLength: 255 }),
    content_type: Text({ minLength: 1, maxLength: 100 }),
    size: Type.Integer({ minimum: 0, maximum: 2147483647 }),
    order_num: Type.Optional(Int32({ minimum: 0, maximum: 1000 })),
    upload_doc_type_id: Type.Optional(Id()),
    /** Issue 34: rotate, remove or mask single pages (applied when the packet is compiled). */
    page_ops: Type.Optional(PageOps),
  },
  { additionalProperties: false },
);
export type RepresentmentFileInput = Static<typeof RepresentmentFileInput>;

export const RepresentmentTemplateInput = Type.Object(
  { id: Id(), order_num: Int32({ minimum: 0, maximum: 1000 }), page_ops: Type.Optional(PageOps) },
  { additionalProperties: false },
);

export const RepresentmentUploadBody = Type.Object(
  {
    case_id: Id(),
    origin: Type.Literal(UPLOAD_ORIGIN),
    files: Type.Array(RepresentmentFileInput, { maxItems: REPRESENTMENT_MAX_ITEMS }),
    templates: Type.Array(RepresentmentTemplateInput, { maxItems: REPRESENTMENT_MAX_ITEMS }),
    qc_review: Type.Boolean(),
    is_reupload: Type.Boolean(),
    comment: Type.Optional(Type.Union([Text({ maxLength: 4000 }), Type.Null()])),
    /** Issue 34: the packet's warnings accepted with a note (recorded in the case history). */
    accepted_warnings: Type.Optional(AcceptedWarnings),
    /** Issue 32: a case a processor connection owns: stage the evidence there as a draft, not submitted. */
    save_as_draft: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type RepresentmentUploadBody = Static<typeof RepresentmentUploadBody>;

export const RepresentmentDocument = Type.Object({
  order_num: Type.Integer(),
  kind: Type.Union([Type.Literal('file'), Type.Literal('template')]),
  template_id: Type.Union([Type.Integer(), Type.Null()]),
  filename: Type.String(),
  content_type: Type.String(),
  size: Type.Integer(),
  pages: Type.Integer(),
  sha256: Type.String(),
  uploaded_by: Type.Union([Type.String(), Type.Null()]),
  uploaded_at: Type.String(),
});
export type RepresentmentDocument = Static<typeof RepresentmentDocument>;

export const CompiledDocument = Type.Object({
  pages: Type.Integer(),
  sha256: Type.String(),
  size: Type.Integer(),
});

export const RepresentmentVersion = Type.Object({
  version: Type.Integer(),
  state: Type.Union([Type.Literal('compiling'), Type.Literal('compiled'), Type.Literal('failed')]),
  qc_review: Type.Boolean(),
  is_reupload: Type.Boolean(),
  comment: Type.Union([Type.String(), Type.Null()]),
  uploaded_by: Type.Union([Type.String(), Type.Null()]),
  uploaded_at: Type.String(),
  documents: Type.Array(RepresentmentDocument),
  compiled: Type.Union([CompiledDocument, Type.Null()]),
  submission_id: Type.Union([Type.String(), Type.Null()]),
});
export type RepresentmentVersion = Static<typeof RepresentmentVersion>;

export const RepresentmentUploadAnswer = Type.Object({
  message: Type.String(),
  title: Type.String(),
  version: Type.Integer(),
  status_id: Type.Integer(),
  job_id: Type.String(),
});
export type RepresentmentUploadAnswer = Static<typeof RepresentmentUploadAnswer>;

export const TransportBody = Type.Object({ case_id: Id() }, { additionalProperties: false });
export const TransportAnswer = Type.Object({ message: Type.String(), job_id: Type.String() });

/**
 * Jobs of the representment path, named here so that the case service (QC
 * approval) can enqueue the transport job the docs service runs.
 */
export const REPRESENTMENT_COMPILE_JOB = {
  name: 'docs.representment-compile',
  schema: Type.Object({ case_id: Type.Integer(), version_id: Type.Integer() }),
  retryLimit: 4,
  retryDelaySeconds: 2,
  retryBackoff: true,
  expireInSeconds: 600,
};
export const REPRESENTMENT_TRANSPORT_JOB = {
  name: 'docs.representment-transport',
  schema: Type.Object({ case_id: Type.Integer() }),
  retryLimit: 5,
  retryDelaySeconds: 2,
  retryBackoff: true,
  expireInSeconds: 300,
};
