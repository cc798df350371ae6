import { openPdf } from '../../services/docs/src/preview/pdfjs-node';

/**
 * A page (0-based) of a PDF as pdf.js reads its text back: one string a line,
 * the pieces drawn on the same line joined by ' | ' (e.g. 'Currency | GBP').
 */
export async function pdfLines(bytes: Uint8Array, page = 0): Promise<string[]> {
  const pdf = await openPdf(bytes);
  try {
    const content = await (await pdf.getPage(page + 1)).getTextContent();
    const lines = new Map<number, string[]>();
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const y = Math.round(item.transform[5] as number);
      lines.set(y, [...(lines.get(y) ?? []), item.str.trim()]);
    }
    return [...lines.values()].map((parts) => parts.join(' | '));
  } finally {
    await pdf.destroy();
  }
}
