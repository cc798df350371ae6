import type { CaseRow } from '@portal/contracts';
import { cspNonce } from '../../../lib/csp-nonce';
import { cellText, type CaseColumn } from './case-columns';

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A landscape HTML table of rows (Print, and the browser's Save as PDF). */
function rowsHtml(title: string, rows: CaseRow[], columns: CaseColumn[]): string {
  const head = columns.map((c) => `<th>${esc(c.label)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${columns.map((c) => `<td>${esc(cellText(r, c))}</td>`).join('')}</tr>`)
    .join('');
  // The print window (about:blank) inherits the page's CSP: its style element needs the nonce.
  const nonce = cspNonce();
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title>
<style${nonce ? ` nonce="${esc(nonce)}"` : ''}>@page{size:landscape;margin:10mm}body{font:10px system-ui,sans-serif}table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:3px 4px;text-align:left}th{background:#f0f0f0}</style></head>
<body><h3>${esc(title)}</h3><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></body></html>`;
}

/** Opens a print window; false when the browser blocked it. */
export function printRows(title: string, rows: CaseRow[], columns: CaseColumn[]): boolean {
  const w = window.open('', '_blank', 'width=1100,height=700');
  if (!w) return false;
  w.document.write(rowsHtml(title, rows, columns));
  w.document.close();
  w.focus();
  w.print();
  return true;
}

/** Tab-separated rows with a header line, for the clipboard. */
export function rowsTsv(rows: CaseRow[], columns: CaseColumn[]): string {
  const line = (cells: string[]) => cells.map((c) => c.replace(/[\t\r\n]+/g, ' ')).join('\t');
  return [
    line(columns.map((c) => c.label)),
    ...rows.map((r) => line(columns.map((c) => cellText(r, c)))),
  ].join('\n');
}
