import { Type, type Static } from '@sinclair/typebox';
import { Id } from './common';
import { CompiledDocument, RepresentmentDocument, RepresentmentVersion } from './representment';

/**
 * Documents (spec 2 §7 'Documents'): the representment of a case and its
 * download. `GET /docs/representment/{caseId}` answers a short-lived signed
 * link; the link itself (`GET /docs/files/{key}?exp=&sig=`, our path) needs no
 * bearer token, so a person can open it in a new tab.
 */
export const DOCS_MESSAGES = {
  /** No representment stored for the case (spec 2 §8 QC). */
  retrieveFailed: 'An error occurred retrieving document for this case.',
  /** The 404 of a case in scope that has no representment yet (its answer's message). */
  noDocument: 'No representment document was found for this case.',
  /** What a case screen shows for it: not an error, the case simply has no document yet (issue 29). */
  noDocumentYet: 'No document yet',
  /** The document was archived (spec 2 §8 'Document view failure'); answered with 410. */
  archived: 'The document has been archived.',
  linkExpired: 'This download link has expired. Open the document again from the portal.',
  linkInvalid: 'This download link is not valid.',
} as const;

/** How long a download link stays valid. */
export const DOC_LINK_TTL_SECONDS = 300;

export const RepresentmentParams = Type.Object({ caseId: Id() });

/**
 * `GET /docs/representment/{caseId}`: the newest representment of the case.
 * For an uploaded one (contracts/representment.ts) also its documents, the
 * compiled PDF ({pages, sha256, size}, null while compiling: then `link` is
 * null too) and every version, newest first.
 */
export const RepresentmentLink = Type.Object({
  link: Type.Union([Type.String(), Type.Null()]),
  case_comments: Type.Union([Type.String(), Type.Null()]),
  filename: Type.String(),
  content_type: Type.String(),
  size: Type.Integer(),
  created_by: Type.Union([Type.String(), Type.Null()]),
  date_created: Type.String(),
  /** ISO time after which the link answers 403. */
  expires_at: Type.String(),
  documents: Type.Array(RepresentmentDocument),
  compiled: Type.Union([CompiledDocument, Type.Null()]),
  version: Type.Union([Type.Integer(), Type.Null()]),
  versions: Type.Array(RepresentmentVersion),
});
export type RepresentmentLink = Static<typeof RepresentmentLink>;

/** `GET /docs/files/{key}`: the signature and expiry of a download link. */
export const SignedFileQuery = Type.Object({
  exp: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  sig: Type.String({ pattern: '^[A-Za-z0-9_-]{16,128}$' }),
});
export type SignedFileQuery = Static<typeof SignedFileQuery>;
