import { Type, type Static } from '@sinclair/typebox';
import { Id, ListResponse, Offset, Text } from './common';

/**
 * Document templates, issuer documents and the download page (spec 2 §3
 * 'Document template', §7 'Documents', §2.10, §8).
 *
 * Templates: a merchant's library of reusable JPEG or PDF files. The client
 * asks for an upload link (`GET /docs/templates/upload-link`, the object
 * store's presigned-POST form), posts the file there, then names the stored
 * key in `POST /docs/templates`; the docs service reads the stored bytes,
 * checks the type by content and counts the pages itself.
 */
export const TEMPLATE_MESSAGES = {
  /** The upload rules of spec 2 §5, also checked by the server on the stored bytes. */
  jpgCorrupt: 'Selected JPG file is corrupt.',
  pdfCorrupt: 'Selected PDF file is corrupt or encrypted.',
  typeNotAllowed: 'Only JPG or PDF files are allowed.',
  tooLarge: 'Files exceed 10MB total limit.',
  noFile: 'Please select a file to upload.',
  empty: 'No basic templates available.',
  created: 'Template uploaded successfully.',
  deleted: 'Template deleted successfully.',
  notFound: 'Template not found.',
  merchantNotFound: 'Merchant not found.',
  midNotFound: 'One or more MIDs do not belong to the merchant.',
  fileNotFound: 'The uploaded file was not found. Please upload it again.',
} as const;

/** Template type 1 (basic) is the only one (spec 2 §9). */
export const TEMPLATE_TYPE_BASIC = 1;
/** Generic document type id for templates (spec 2 §9). */
export const GENERIC_DOCUMENT_TYPE_ID = 9;
/** Template file types offered: JPEG or PDF only. */
export const TEMPLATE_CONTENT_TYPES = ['application/pdf', 'image/jpeg'] as const;
/** Largest template file: the newer upload panel's limit (spec 2 §5), 10485760 bytes. */
export const TEMPLATE_MAX_BYTES = 10_485_760;

export const TEMPLATE_TYPES = [{ id: TEMPLATE_TYPE_BASIC, name: 'Basic' }] as const;
/** Document types a template may be filed as (id 9 'Generic' is the default). */
export const TEMPLATE_DOCUMENT_TYPES = [
  { id: 1, name: 'Proof of Delivery', required: false },
  { id: 2, name: 'Receipt / Invoice', required: false },
  { id: 3, name: 'Customer Communication', required: false },
  { id: 4, name: 'Terms and Conditions', required: false },
  { id: 5, name: 'Refund Policy', required: false },
  { id: 6, name: 'AVS / CVV Match', required: false },
  { id: 7, name: '3-D Secure Authentication', required: false },
  { id: 8, name: 'Usage Logs', required: false },
  { id: GENERIC_DOCUMENT_TYPE_ID, name: 'Generic', required: false },
] as const;

export const TemplateListQuery = Type.Object({
  merchant_id: Id(),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999, default: 25 })),
});
export type TemplateListQuery = Static<typeof TemplateListQuery>;

export const Template = Type.Object(
  {
    id: Type.Integer(),
    merchant_id: Type.Integer(),
    name: Type.String(),
    template_type: Type.Integer(),
    document_type_id: Type.Union([Type.Integer(), Type.Null()]),
    document_type: Type.Union([Type.String(), Type.Null()]),
    mid_ids: Type.Array(Type.Integer()),
    created_by: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    /** The stored file (spec 2 §3: id, file (filename, size, pages)). */
    file: Type.Object({
      filename: Type.String(),
      content_type: Type.String(),
      size: Type.Integer(),
      pages: Type.Integer(),
    }),
  },
  { $id: 'Template' },
);
export type Template = Static<typeof Template>;

export const TemplateList = ListResponse(Template);
export type TemplateList = Static<typeof TemplateList>;

export const TemplateTypes = Type.Object({
  template_types: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  document_types: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), required: Type.Boolean() }),
  ),
});
export type TemplateTypes = Static<typeof TemplateTypes>;

export const TemplateUploadLinkQuery = Type.Object({
  merchant_id: Id(),
  filename: Text({ minLength: 1, maxLength: 255 }),
  content_type: Type.Union(TEMPLATE_CONTENT_TYPES.map((t) => Type.Literal(t))),
});
export type TemplateUploadLinkQuery = Static<typeof TemplateUploadLinkQuery>;

/** The object store's presigned-POST form (design §10): post `fields` plus `file` (last) to `url`. */
export const UploadLinkResponse = Type.Object({
  url: Type.String(),
  fields: Type.Record(Type.String(), Type.String()),
});
export type UploadLinkResponse = Static<typeof UploadLinkResponse>;

export const TemplateCreateBody = Type.Object(
  {
    merchant_id: Id(),
    s3_key: Text({ minLength: 1, maxLength: 512 }),
    name: Text({ minLength: 1, maxLength: 200 }),
    file_name: Text({ minLength: 1, maxLength: 255 }),
    content_type: Type.Union(TEMPLATE_CONTENT_TYPES.map((t) => Type.Literal(t))),
    size: Type.Integer({ minimum: 1, maximum: TEMPLATE_MAX_BYTES }),
    template_type: Type.Literal(TEMPLATE_TYPE_BASIC),
    /** The client's count; the server counts the stored file's pages itself. */
    pages: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    document_type_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    mid_ids: Type.Optional(Type.Array(Id(), { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
export type TemplateCreateBody = Static<typeof TemplateCreateBody>;

export const TemplateDeleteParams = Type.Object({ id: Id(), templateId: Id() });

/** Issuer documents (spec 2 §7): `GET /docs/issuer-doc/{caseId}/{docId}`. */
export const IssuerDocParams = Type.Object({ caseId: Id(), docId: Id() });
export const IssuerDocLink = Type.Object({
  /** A short-lived download link. */
  uri: Type.String(),
  filename: Type.String(),
});
export type IssuerDocLink = Static<typeof IssuerDocLink>;

/**
 * The download page (spec 2 §2.10): `GET /docs/downloadable?loc=` answers a
 * short-lived link to a stored object of the caller's tenant. `loc` is an
 * object key as the object store makes them (`{tenant}/{area}/{uuid}/{file}`)
 * in an area the download page serves (DOWNLOADABLE_AREAS); anything else is
 * 400 'Invalid url provided.', a well-formed key that names nothing (or
 * another tenant's object) is 404.
 */
export const DOWNLOAD_MESSAGES = {
  invalidUrl: 'Invalid url provided.',
  notFound: 'The file was not found.',
  generic: 'An error occurred. Please try again later.',
  wait: 'Please wait, while we download your document.',
} as const;
/** Object areas a `loc` may name: export files and case-updater results mailed as download links. */
export const DOWNLOADABLE_AREAS = ['exports', 'case-updater'] as const;

export const DownloadableQuery = Type.Object({ loc: Type.Optional(Type.String({ maxLength: 1024 })) });
export const Downloadable = Type.Object({ url: Type.String(), filename: Type.String() });
export type Downloadable = Static<typeof Downloadable>;
