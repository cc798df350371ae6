import { EVIDENCE_MESSAGES as E, type PageBox, type PageOp } from '@portal/contracts';
import { badRequest } from '@portal/core';

/** What becomes of one page of a document: kept (in order), turned by `rotate` degrees, masked by `boxes`. */
export interface PlannedPage {
  page: number;
  rotate: number;
  boxes: PageBox[];
}

/**
 * A document's page operations as the pages to compile, in the document's
 * order: removed pages left out, rotations summed, a page's mask boxes
 * joined. Refused (400) when an operation names a page the document does not
 * have, masks a JPEG, or removes every page.
 */
export function planPages(
  ops: readonly PageOp[] | undefined,
  doc: { pages: number; contentType: string; filename: string },
): PlannedPage[] {
  const plan = new Map<number, PlannedPage & { removed: boolean }>();
  for (let page = 0; page < doc.pages; page++) plan.set(page, { page, rotate: 0, boxes: [], removed: false });
  for (const op of ops ?? []) {
    const p = plan.get(op.page);
    if (!p) throw badRequest(E.noSuchPage(doc.filename, op.page + 1));
    if (op.op === 'remove') p.removed = true;
    else if (op.op === 'rotate') p.rotate = (p.rotate + op.degrees) % 360;
    else {
      if (doc.contentType !== 'application/pdf') throw badRequest(E.maskImage(doc.filename));
      p.boxes.push(...op.boxes);
    }
  }
  const kept = [...plan.values()].filter((p) => !p.removed).map(({ removed: _r, ...p }) => p);
  if (!kept.length) throw badRequest(E.allRemoved(doc.filename));
  return kept;
}

/** A version's stored operations (each naming its document's order_num) for one document. */
export interface VersionPageOp {
  document: number;
  op: PageOp;
}

export const opsOfDocument = (ops: readonly VersionPageOp[] | null | undefined, orderNum: number) =>
  (ops ?? []).filter((o) => o.document === orderNum).map((o) => o.op);
