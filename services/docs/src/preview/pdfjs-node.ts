import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api';

/**
 * pdf.js on Node (the legacy build, with its in-process worker and the
 * @napi-rs/canvas it renders with), loaded on first use so that a docs
 * process that never previews does not pay for it.
 */
let loading: Promise<typeof PdfJs> | null = null;
const pdfjs = () => (loading ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/** The standard 14 fonts (not embedded in most generated PDFs) are drawn from pdf.js's own font files. */
const standardFontDataUrl = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Opens a PDF from its bytes (copied: pdf.js may detach the buffer it is given). */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const { getDocument } = await pdfjs();
  return getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
}

/** A canvas of pdf.js's own factory (the node canvas): what `render` draws on. */
export interface NodeCanvas {
  width: number;
  height: number;
  toBuffer(mime: 'image/png'): Buffer;
}
/** The part of the 2D context used here (the service is not compiled with the DOM types). */
export interface NodeContext {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}
export interface CanvasAndContext {
  canvas: NodeCanvas;
  context: NodeContext;
}
type RenderParameters = Parameters<PDFPageProxy['render']>[0];

/** Renders a page (0-based) at `scale`, unrotated (PDF user space up), onto a white canvas. */
export async function renderPage(pdf: PDFDocumentProxy, index: number, scale: number) {
  const page = await pdf.getPage(index + 1);
  const viewport = page.getViewport({ scale, rotation: 0 });
  const factory = (pdf as unknown as { canvasFactory: { create(w: number, h: number): CanvasAndContext } })
    .canvasFactory;
  const target = factory.create(
    Math.max(1, Math.ceil(viewport.width)),
    Math.max(1, Math.ceil(viewport.height)),
  );
  target.context.fillStyle = '#ffffff';
  target.context.fillRect(0, 0, target.canvas.width, target.canvas.height);
  const params = { canvas: target.canvas, canvasContext: target.context, viewport };
  await page.render(params as unknown as RenderParameters).promise;
  page.cleanup();
  return { ...target, viewport, view: page.view };
}
