import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/**
 * pdf.js for the viewer: this module is reached only through the lazily
 * loaded viewer, so pdf.js adds nothing to other screens' JavaScript; its
 * worker is a separate asset of our own origin (the CSP's script-src 'self'
 * covers it as worker-src).
 */
GlobalWorkerOptions.workerSrc = workerUrl;

export function openPdf(bytes: ArrayBuffer): Promise<PDFDocumentProxy> {
  // A copy: pdf.js hands the buffer to its worker, and the caller may draw from it again.
  return getDocument({ data: new Uint8Array(bytes.slice(0)) }).promise;
}

/** Draws a page at a given CSS width onto a canvas (sharp on high-density screens). */
export async function drawPage(
  pdf: PDFDocumentProxy,
  page: number,
  canvas: HTMLCanvasElement,
  width: number,
) {
  const p = await pdf.getPage(page);
  const base = p.getViewport({ scale: 1 });
  const ratio = window.devicePixelRatio || 1;
  const viewport = p.getViewport({ scale: (width / base.width) * ratio });
  canvas.width = Math.ceil(viewport.width);
  canvas.height = Math.ceil(viewport.height);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${Math.round(viewport.height / ratio)}px`;
  await p.render({ canvas, viewport }).promise;
}

export type { PDFDocumentProxy };
