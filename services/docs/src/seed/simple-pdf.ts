/**
 * A one-page PDF 1.4 of text lines in the standard Helvetica fonts (no
 * embedded fonts, no dependency): enough for the demo representments to be
 * real documents a browser's PDF viewer opens.
 */
export interface PdfLine {
  text: string;
  size?: number;
  bold?: boolean;
  /** Extra space above the line, in points. */
  gap?: number;
}

const PAGE = { width: 612, height: 792, margin: 72 };

/** PDF string literal: Latin-1 only (others become '?'), with (, ) and \ escaped. */
function literal(text: string): string {
  const latin1 = [...text].map((ch) => (ch.charCodeAt(0) <= 0xff ? ch : '?')).join('');
  return `(${latin1.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** Greedy wrap at an average Helvetica width (0.5 em): good enough for prose. */
function wrap(text: string, size: number): string[] {
  const perLine = Math.floor((PAGE.width - 2 * PAGE.margin) / (size * 0.5));
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > perLine) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  out.push(line);
  return out;
}

function contentStream(title: string, lines: PdfLine[]): string {
  const ops: string[] = [];
  let y = PAGE.height - PAGE.margin;
  // A brand bar and a rule under the title.
  ops.push('0.16 0.33 0.62 rg', `0 ${PAGE.height - 28} ${PAGE.width} 28 re f`, '0 g');
  ops.push('BT', `/F2 18 Tf ${PAGE.margin} ${y} Td ${literal(title)} Tj`, 'ET');
  y -= 12;
  ops.push('0.6 G 0.8 w', `${PAGE.margin} ${y} m ${PAGE.width - PAGE.margin} ${y} l S`, '0 G');
  y -= 10;
  for (const line of lines) {
    const size = line.size ?? 11;
    y -= line.gap ?? 0;
    for (const part of wrap(line.text, size)) {
      y -= size * 1.45;
      if (y < PAGE.margin) break;
      ops.push(
        'BT',
        `/${line.bold ? 'F2' : 'F1'} ${size} Tf ${PAGE.margin} ${y.toFixed(1)} Td ${literal(part)} Tj`,
        'ET',
      );
    }
  }
  return ops.join('\n');
}

export function simplePdf(
  title: string,
  lines: PdfLine[],
  info: { author?: string; created?: Date } = {},
): Buffer {
  const stream = contentStream(title, lines);
  const created = (info.created ?? new Date(0)).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    `<< /Title ${literal(title)} /Author ${literal(info.author ?? 'Chargeback Portal')} /Producer (Chargeback Portal) /CreationDate (D:${created}Z) >>`,
  ];
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
