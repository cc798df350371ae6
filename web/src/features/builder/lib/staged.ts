import { BUILDER_MESSAGES as M, bytesToMb, type DocType } from '@portal/contracts';

/** A document staged in step 3: a JPG file (uploaded to the store on Save & Continue) or a library template. */
export type StagedDoc =
  | { key: number; kind: 'file'; docTypeId: number; file: File; size: number; s3Key: string | null }
  | { key: number; kind: 'template'; docTypeId: number; templateId: number; name: string; size: number };

const isJpeg = async (file: Blob) => {
  const b = new Uint8Array(await file.slice(0, 3).arrayBuffer());
  return b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
};

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
  if (add.file && (add.file.type !== 'image/jpeg' || !(await isJpeg(add.file)))) return M.onlyJpg(mb);
  const total = staged.reduce((n, s) => n + s.size, 0) + add.size;
  if (total > maxBytes) return M.tooLarge(mb);
  return null;
}

/** Every required document type needs a document; the first missing one's text, or null. */
export function missingDocType(types: readonly DocType[], staged: readonly StagedDoc[]): string | null {
  const missing = types.find((t) => t.required && !staged.some((s) => s.docTypeId === t.id));
  return missing ? M.missingDocType(missing.name) : null;
}
