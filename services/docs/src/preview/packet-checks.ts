import {
  BUILDER_MESSAGES as B,
  bytesToMb,
  EVIDENCE_MESSAGES as E,
  REPRESENTMENT_MESSAGES as M,
  type PacketCheck,
  type PageBox,
} from '@portal/contracts';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import type { CompiledPage } from '../representment/compile';
import { datesIn } from './evidence-dates';
import { findPans, maskedPan } from './pan';
import { openPdf, renderPage } from './pdfjs-node';

/**
 * What a reviewer at the card network would reject (issue 34), read from the
 * compiled packet itself: a full card number in the text of a page (blocked
 * until masked), a blank or unreadable page (no text layer, almost no ink), a
 * date on a page after the case's due date, a packet over the page or size
 * limit, a document type the reason code requires and the packet lacks.
 */
export interface PacketFacts {
  bytes: Uint8Array;
  pageMap: readonly CompiledPage[];
  /** The case's due date (yyyy-MM-dd...). */
  dueDate: string | null;
  limits: { maxBytes: number; maxPages: number };
  /** Names of required document types without a document (the case builder's). */
  missingDocTypes?: readonly string[];
}

/** Below this share of dark pixels a page without text counts as blank. */
const INK_SHARE = 0.002;
/** Width in pixels a page without text is drawn at to measure its ink. */
const INK_WIDTH = 96;

export async function checkPacket(facts: PacketFacts): Promise<PacketCheck[]> {
  const checks: PacketCheck[] = [];
  const due = facts.dueDate?.slice(0, 10) ?? null;
  const pdf = await openPdf(facts.bytes);
  try {
    for (let i = 0; i < pdf.numPages; i++) {
      const number = i + 1;
      const source = facts.pageMap[i];
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const items = content.items.filter((it) => 'str' in it) as TextItem[];
      const { text, owners } = joined(items);
      for (const pan of findPans(text)) {
        const boxes = boxesOf(items, owners.slice(pan.start, pan.end));
        checks.push({
          code: 'pan',
          level: 'blocked',
          message: E.pan(number, maskedPan(pan.digits)),
          page: number,
          mask: source ? { document: source.document, page: source.sourcePage, boxes } : null,
        });
      }
      const late = due
        ? datesIn(text)
            .filter((d) => d > due)
            .sort()
        : [];
      if (late.length && due)
        checks.push(warning('date_after_due', E.dateAfterDue(number, late[late.length - 1]!, due), number));
      page.cleanup();
      if (!text.trim() && (await inkShare(pdf, i)) < INK_SHARE)
        checks.push(warning('blank', E.blank(number), number));
    }
  } finally {
    await pdf.destroy();
  }
  const { maxBytes, maxPages } = facts.limits;
  if (maxPages > 0 && facts.pageMap.length > maxPages)
    checks.push(blocked('over_pages', M.tooManyPages(maxPages)));
  if (facts.bytes.length > maxBytes) checks.push(blocked('over_size', M.tooLarge(bytesToMb(maxBytes))));
  for (const name of facts.missingDocTypes ?? [])
    checks.push(blocked('missing_doc_type', B.missingDocType(name)));
  return checks;
}

const warning = (code: PacketCheck['code'], message: string, page: number | null = null): PacketCheck => ({
  code,
  level: 'warning',
  message,
  page,
  mask: null,
});
const blocked = (code: PacketCheck['code'], message: string): PacketCheck => ({
  code,
  level: 'blocked',
  message,
  page: null,
  mask: null,
});

/** The page's text, items joined by a space (a line end by a newline), and which item owns each character. */
function joined(items: readonly TextItem[]) {
  let text = '';
  const owners: number[] = [];
  items.forEach((item, i) => {
    text += item.str;
    for (let k = 0; k < item.str.length; k++) owners.push(i);
    text += item.hasEOL ? '\n' : ' ';
    owners.push(-1);
  });
  return { text, owners };
}

/** The boxes (PDF user space) of the items that draw the characters: whole items, generously. */
function boxesOf(items: readonly TextItem[], owners: readonly number[]): PageBox[] {
  const boxes: PageBox[] = [];
  for (const i of new Set(owners.filter((o) => o >= 0))) {
    const it = items[i]!;
    const [a, b, c, d, e, f] = it.transform as [number, number, number, number, number, number];
    const size = Math.hypot(c, d) || it.height || Math.hypot(a, b);
    const width = it.width || size * it.str.length * 0.6;
    boxes.push({ x: e, y: f - size * 0.25, width, height: size * 1.2 });
  }
  return boxes;
}

/** The share of dark pixels of a page drawn small. */
async function inkShare(pdf: Awaited<ReturnType<typeof openPdf>>, index: number): Promise<number> {
  const page = await pdf.getPage(index + 1);
  const width = page.getViewport({ scale: 1, rotation: 0 }).width;
  const r = await renderPage(pdf, index, INK_WIDTH / Math.max(1, width));
  const { data } = r.context.getImageData(0, 0, r.canvas.width, r.canvas.height);
  let dark = 0;
  for (let k = 0; k < data.length; k += 4) if ((data[k]! + data[k + 1]! + data[k + 2]!) / 3 < 200) dark++;
  return dark / (data.length / 4);
}
