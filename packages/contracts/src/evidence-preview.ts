import { Type, type Static } from '@sinclair/typebox';
import { Id, Int32, Text } from './common';
import { PageBox, PageOps } from './page-ops';
import { RepresentmentFileInput, RepresentmentTemplateInput } from './representment';

/**
 * See the evidence before it goes (issue 34):
 *
 *   POST /docs/representment/preview              the staged documents compiled exactly as the
 *                                                 compile job will, stored, with the packet checks
 *   GET  /docs/representment/preview/:caseId/:sha256   the previewed PDF (application/pdf)
 *   POST /docs/builder/preview                    the case builder's packet (case summary first)
 *   GET  /docs/representment/:caseId/packet       the newest compiled version: pages with provenance
 *   GET  /docs/representment/:caseId/packet.pdf   its PDF (application/pdf)
 */
export const EVIDENCE_MESSAGES = {
  pan: (page: number, masked: string) =>
    `Page ${page} shows a full card number (${masked}). Mask it before the packet is submitted.`,
  blank: (page: number) => `Page ${page} looks blank or unreadable (no text and almost no ink).`,
  dateAfterDue: (page: number, date: string, due: string) =>
    `Page ${page} is dated ${date}, after the due date ${due}.`,
  panRefused: 'The packet shows a full card number. Mask it before the packet is submitted.',
  previewChanged: 'The packet changed since its preview. Please preview it again.',
  maskImage: (filename: string) => `Only pages of a PDF can be masked (${filename}).`,
  noSuchPage: (filename: string, page: number) => `${filename} has no page ${page}.`,
  allRemoved: (filename: string) =>
    `Every page of ${filename} was removed: remove the document from the packet instead.`,
  previewGone: 'The preview has expired. Please preview the packet again.',
  /** The web app's: Upload with warnings nobody accepted yet. */
  acceptWarnings: 'Accept the warnings with a note, or change the packet.',
  notCompiled: 'The representment has no compiled packet yet.',
  /** The case history row of an upload whose warnings were accepted. */
  acceptedHistory: (count: number, note: string) => `Packet warnings accepted (${count}): ${note}`,
  /** The case history row of an upload (through the API) whose warnings nobody accepted. */
  unreviewedHistory: (messages: readonly string[]) => `Packet warnings not reviewed: ${messages.join(' ')}`,
} as const;

export const PreviewBody = Type.Object(
  {
    case_id: Id(),
    files: Type.Array(RepresentmentFileInput, { maxItems: 50 }),
    templates: Type.Array(RepresentmentTemplateInput, { maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type PreviewBody = Static<typeof PreviewBody>;

export const BuilderPreviewBody = Type.Object(
  {
    case_id: Id(),
    files: Type.Array(
      Type.Object(
        {
          s3_key: Text({ minLength: 1, maxLength: 512 }),
          filename: Text({ minLength: 1, maxLength: 255 }),
          content_type: Text({ minLength: 1, maxLength: 100 }),
          size: Type.Integer({ minimum: 0, maximum: 2147483647 }),
          order_num: Int32({ minimum: 0, maximum: 1000 }),
          upload_doc_type_id: Id(),
          page_ops: Type.Optional(PageOps),
        },
        { additionalProperties: false },
      ),
      { maxItems: 50 },
    ),
    templates: Type.Array(
      Type.Object(
        {
          id: Id(),
          order_num: Int32({ minimum: 0, maximum: 1000 }),
          upload_doc_type_id: Id(),
          page_ops: Type.Optional(PageOps),
        },
        { additionalProperties: false },
      ),
      { maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);
export type BuilderPreviewBody = Static<typeof BuilderPreviewBody>;

/** One document of the packet, in packet order; `s3_key` or `template_id` names what the client staged. */
export const PacketDocument = Type.Object({
  position: Type.Integer(),
  filename: Type.String(),
  content_type: Type.String(),
  kind: Type.Union([Type.Literal('file'), Type.Literal('template'), Type.Literal('generated')]),
  s3_key: Type.Union([Type.String(), Type.Null()]),
  template_id: Type.Union([Type.Integer(), Type.Null()]),
  pages: Type.Integer(),
  size: Type.Integer(),
  sha256: Type.String(),
});
export type PacketDocument = Static<typeof PacketDocument>;

/** A page of the packet: the document it came from (its position) and that document's page (0-based). */
export const PacketPage = Type.Object({
  page: Type.Integer(),
  document: Type.Integer(),
  source_page: Type.Integer(),
  rotation: Type.Integer(),
  masked: Type.Boolean(),
});
export type PacketPage = Static<typeof PacketPage>;

/**
 * A finding: `blocked` cannot be accepted (a card number, over the limits, a
 * missing required document type), `warning` can, with a note.
 */
export const PacketCheck = Type.Object({
  code: Type.Union([
    Type.Literal('pan'),
    Type.Literal('blank'),
    Type.Literal('date_after_due'),
    Type.Literal('over_pages'),
    Type.Literal('over_size'),
    Type.Literal('missing_doc_type'),
  ]),
  level: Type.Union([Type.Literal('blocked'), Type.Literal('warning')]),
  message: Type.String(),
  page: Type.Union([Type.Integer(), Type.Null()]),
  /** For a card number: the mask to add (document position, its page, the boxes). */
  mask: Type.Union([
    Type.Object({ document: Type.Integer(), page: Type.Integer(), boxes: Type.Array(PageBox) }),
    Type.Null(),
  ]),
});
export type PacketCheck = Static<typeof PacketCheck>;

export const PacketPreview = Type.Object({
  case_id: Type.Integer(),
  sha256: Type.String(),
  size: Type.Integer(),
  pages: Type.Integer(),
  limits: Type.Object({ max_bytes: Type.Integer(), max_pages: Type.Integer() }),
  documents: Type.Array(PacketDocument),
  page_map: Type.Array(PacketPage),
  checks: Type.Array(PacketCheck),
  /** GET path (under /api) of the previewed PDF. */
  pdf_path: Type.String(),
});
export type PacketPreview = Static<typeof PacketPreview>;

export const PreviewPdfParams = Type.Object({
  caseId: Id(),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

/** The newest compiled version of a case, page by page with provenance (the QC reviewer's viewer). */
export const CompiledPacket = Type.Object({
  case_id: Type.Integer(),
  version: Type.Integer(),
  sha256: Type.String(),
  size: Type.Integer(),
  pages: Type.Integer(),
  documents: Type.Array(PacketDocument),
  page_map: Type.Array(PacketPage),
  pdf_path: Type.String(),
});
export type CompiledPacket = Static<typeof CompiledPacket>;
