import {
  BUILDER_MESSAGES as M,
  bytesToMb,
  type BuilderUploadBody,
  type DocType,
  type PageOp,
} from '@portal/contracts';

/** The file types step 3 takes: JPEG and PDF, as the representment upload (issue 29). */
export type BuilderFileType = 'image/jpeg' | 'application/pdf';
export const BUILDER_FILE_ACCEPT = 'image/jpeg,application/pdf';

/**
 * A document staged in step 3: a JPG or PDF file (uploaded to the store on Save & Continue) or a
 * library template, with the page operations made in the packet preview (issue 34).
 */
export type StagedDoc = (
  | {
      key: number;
      kind: 'file';
      docTypeId: number;
      file: File;
      contentType: BuilderFileType;
      size: number;
      s3Key: string | null;
    }
  | { key: number; kind: 'template'; docTypeId: number; templateId: number; name: string; size: number }
) & { ops?: PageOp[] };

export const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KB`;
/** JPG or PDF for a file; 'Template' for a library template. */
export const stagedFormat = (s: StagedDoc) =>
  s.kind === 'template' ? 'Template' : s.contentType === 'application/pdf' ? 'PDF' : 'JPG';
/** A staged document's name: the file's, or the template's. */
export const stagedName = (s: StagedDoc) => (s.kind === 'file' ? s.file.name : s.name);

/**
 * The type of a file by its first bytes (JPEG `FF D8 FF`, PDF `%PDF-`), when the browser declares
 * the same type; null otherwise. The docs service checks the stored bytes again on submission.
 */
export async function fileType(file: File): Promise<BuilderFileType | null> {
  const b = new Uint8Array(await file.slice(0, 5).arrayBuffer());
  const sniffed: BuilderFileType | null =
    b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff
      ? 'image/jpeg'
      : String.fromCharCode(...b) === '%PDF-'
        ? 'application/pdf'
        : null;
  return sniffed && file.type.toLowerCase() === sniffed ? sniffed : null;
}

/** The step 3 rules of spec 2 §5 for one more document; the error text, or null. */
export async function checkAddition(
  staged: readonly StagedDoc[],
  add: { docTypeId: number | null; file?: File; templateId?: number; size: number },
  maxBytes: number | undefined,
): Promise<string | null> {
  if (maxBytes === undefined) return M.failed;
  const mb = bytesToMb(maxBytes);
  if (!add.docTypeId) return M.selectDocType;
  if (
    add.templateId !== undefined &&
    staged.some((s) => s.kind === 'template' && s.templateId === add.templateId)
  )
    return M.templateAdded;
  if (add.file && !(await fileType(add.file))) return M.onlyJpgOrPdf(mb);
  const total = staged.reduce((n, s) => n + s.size, 0) + add.size;
  if (total > maxBytes) return M.tooLarge(mb);
  return null;
}

/** Every required document type needs a document; the first missing one's text, or null. */
export function missingDocType(types: readonly DocType[], staged: readonly StagedDoc[]): string | null {
  const missing = types.find((t) => t.required && !staged.some((s) => s.docTypeId === t.id));
  return missing ? M.missingDocType(missing.name) : null;
}

const ops = (s: StagedDoc) => (s.ops?.length ? { page_ops: s.ops } : {});

/** The stored files and templates in their order, as the submission and its preview name them. */
export function builderPacketOf(
  staged: readonly StagedDoc[],
): Pick<BuilderUploadBody, 'files' | 'templates'> {
  return {
    files: staged.flatMap((s, i) =>
      s.kind === 'file' && s.s3Key
        ? [
            {
              s3_key: s.s3Key,
              filename: s.file.name,
              content_type: s.contentType,
              size: s.size,
              order_num: i,
              upload_doc_type_id: s.docTypeId,
              ...ops(s),
            },
          ]
        : [],
    ),
    templates: staged.flatMap((s, i) =>
      s.kind === 'template'
        ? [{ id: s.templateId, order_num: i, upload_doc_type_id: s.docTypeId, ...ops(s) }]
        : [],
    ),
  };
}
