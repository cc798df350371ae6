import type { CompiledPacket } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { documentsOf, latestVersion } from '../representment/version-repository';
import { opsOfDocument, planPages } from './page-plan';

/**
 * The newest compiled version of a case, page by page (issue 34, the QC
 * reviewer's viewer): each page of the compiled PDF named by the document it
 * came from, that document's SHA-256 (its provenance, kept since upload) and
 * its page, from the version's documents and stored page operations, planned
 * as the compile job planned them. Null when nothing is compiled.
 */
export async function compiledPacket(
  db: Queryable,
  tenant: string,
  caseId: number,
): Promise<(CompiledPacket & { key: string }) | null> {
  const v = await latestVersion(db, tenant, caseId);
  if (!v || v.state !== 'compiled' || !v.compiled_key || !v.compiled_sha256) return null;
  const docs = await documentsOf(db, [v.id]);
  const pageMap: CompiledPacket['page_map'] = [];
  for (const [position, d] of docs.entries()) {
    const plan = planPages(opsOfDocument(v.page_ops, d.order_num), {
      pages: d.pages,
      contentType: d.content_type,
      filename: d.filename,
    });
    for (const p of plan)
      pageMap.push({
        page: pageMap.length + 1,
        document: position,
        source_page: p.page,
        rotation: p.rotate,
        masked: p.boxes.length > 0,
      });
  }
  return {
    key: v.compiled_key,
    case_id: caseId,
    version: v.version,
    sha256: v.compiled_sha256,
    size: v.compiled_size ?? 0,
    pages: v.compiled_pages ?? pageMap.length,
    documents: docs.map((d, position) => ({
      position,
      filename: d.filename,
      content_type: d.content_type,
      kind: d.kind,
      s3_key: null,
      template_id: d.template_id,
      pages: d.pages,
      size: d.size,
      sha256: d.sha256,
    })),
    page_map: pageMap,
    pdf_path: `/api/docs/representment/${caseId}/packet.pdf`,
  };
}
