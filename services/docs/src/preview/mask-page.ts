import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import type { PageBox } from '@portal/contracts';
import { renderPage } from './pdfjs-node';

/** 144 dpi: a masked page stays legible when printed. */
const MASK_SCALE = 2;
/** Points of margin around each box, so that the edges of glyphs are covered too. */
const PAD = 2;

/**
 * A page with boxes filled over it, as a PNG of the whole page and the
 * page's size in points. The page is redrawn as an image on purpose: a box
 * drawn over text would leave the text (the card number) in the content
 * stream, where anyone can select and copy it.
 */
export async function maskedPageImage(pdf: PDFDocumentProxy, index: number, boxes: readonly PageBox[]) {
  const r = await renderPage(pdf, index, MASK_SCALE);
  r.context.fillStyle = '#000000';
  for (const b of boxes) {
    const [x1, y1, x2, y2] = r.viewport.convertToViewportRectangle([
      b.x - PAD,
      b.y - PAD,
      b.x + b.width + PAD,
      b.y + b.height + PAD,
    ]) as [number, number, number, number];
    const left = Math.floor(Math.min(x1, x2));
    const top = Math.floor(Math.min(y1, y2));
    r.context.fillRect(left, top, Math.ceil(Math.max(x1, x2)) - left, Math.ceil(Math.max(y1, y2)) - top);
  }
  const [vx1, vy1, vx2, vy2] = r.view as [number, number, number, number];
  return { png: r.canvas.toBuffer('image/png'), width: vx2 - vx1, height: vy2 - vy1 };
}
