import {
  type CaseDetail,
  type InternalContext,
  type PacketDocument,
  type PacketPreview,
} from '@portal/contracts';
import { conflict, type CaseClient, type Db } from '@portal/core';
import type { ObjectStore } from '@portal/storage';
import {
  compilePacket,
  generatedDocument,
  orderStaged,
  stageDocuments,
  type FileInput,
  type GeneratedDocument,
  type Staged,
  type TemplateInput,
} from '../representment/accept-representment';
import { uploadLimits } from '../representment/upload-limits';
import type { CompiledPage } from '../representment/compile';
import { checkPacket } from './packet-checks';
import { previewKey, previewPath, recordPreview } from './preview-store';

export interface PreviewDeps {
  db: Db;
  cases: Pick<CaseClient, 'caseDetail'>;
  store: ObjectStore;
  tenantConfigDir: string;
}

export interface PreviewInput {
  caseId: number;
  from: readonly number[];
  notUploadable(status: string): string;
  files: readonly FileInput[];
  templates: readonly TemplateInput[];
  fileField?: string;
  /** The case builder's own parts: its case summary first, its required document types. */
  builder?(c: CaseDetail): Promise<{ summary: GeneratedDocument; missingDocTypes: string[] }>;
}

/**
 * 'Preview packet' (issue 34): the staged documents checked as the upload
 * checks them and compiled by the compile job's own function, in the same
 * order with the same templates and page operations; the PDF is stored for
 * the viewer and the checks answered. Nothing about the case changes.
 */
export async function previewPacket(
  deps: PreviewDeps,
  ctx: InternalContext,
  input: PreviewInput,
): Promise<PacketPreview> {
  const c = await deps.cases.caseDetail(ctx, input.caseId);
  if (!input.from.includes(c.status_id)) throw conflict(input.notUploadable(c.status));
  const limits = uploadLimits(deps.tenantConfigDir, ctx);
  const staged = await stageDocuments(
    deps,
    ctx,
    c,
    { ...input, route: { fileField: input.fileField } },
    limits,
  );
  const extra = await input.builder?.(c);
  if (extra) staged.push(generatedDocument(extra.summary));
  orderStaged(staged);
  const packet = await compilePacket(staged);
  const key = previewKey(ctx.tenant, c.id, packet.sha256);
  // The PDF is stored while the pages are read: the viewer asks for it once the answer is in.
  const [checks] = await Promise.all([
    checkPacket({ ...packet, dueDate: c.date_due, limits, missingDocTypes: extra?.missingDocTypes }),
    storePreview(deps, ctx.tenant, key, packet.bytes),
  ]);
  return {
    case_id: c.id,
    sha256: packet.sha256,
    size: packet.bytes.length,
    pages: packet.pages,
    limits: { max_bytes: limits.maxBytes, max_pages: limits.maxPages },
    documents: staged.map(packetDocument),
    page_map: pageMapOf(packet.pageMap),
    checks,
    pdf_path: previewPath(c.id, packet.sha256),
  };
}

export function packetDocument(d: Staged): PacketDocument {
  return {
    position: d.orderNum,
    filename: d.filename,
    content_type: d.contentType,
    kind: d.s3Key === '' ? 'generated' : d.kind,
    s3_key: d.kind === 'file' ? d.s3Key : null,
    template_id: d.templateId,
    pages: d.pages,
    size: d.size,
    sha256: d.sha256,
  };
}

export const pageMapOf = (map: readonly CompiledPage[]) =>
  map.map((p, i) => ({
    page: i + 1,
    document: p.document,
    source_page: p.sourcePage,
    rotation: p.rotation,
    masked: p.masked,
  }));

async function storePreview(deps: PreviewDeps, tenant: string, key: string, bytes: Uint8Array) {
  // Written every time, even when the same packet is stored already: the purge may be removing it
  // as its row is renewed, and the viewer asks for it next.
  await recordPreview(deps.db, tenant, key);
  await deps.store.put(tenant, key, bytes, { contentType: 'application/pdf', contentLength: bytes.length });
}

/** The preview's PDF, if it is still stored. */
export async function previewPdf(store: ObjectStore, tenant: string, caseId: number, sha256: string) {
  const stream = await store.read(tenant, previewKey(tenant, caseId, sha256));
  return stream ?? null;
}
