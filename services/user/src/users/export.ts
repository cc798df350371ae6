import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { UserItem } from '@portal/contracts';

/**
 * Users export (spec 3 §2 Users: CSV, or Excel for USERS_EXPORT_BUTTON
 * holders), streamed from batches so that a tenant of 100,000 users never
 * sits in memory. Text cells that begin with = + - @ (or a tab / CR) are
 * neutralised with a leading apostrophe: a spreadsheet would run them as
 * formulas.
 */
const EXPORT_COLUMNS: { header: string; value: (u: UserItem) => string | number }[] = [
  { header: 'ID', value: (u) => u.id },
  { header: 'First Name', value: (u) => u.fname },
  { header: 'Last Name', value: (u) => u.lname },
  { header: 'Username', value: (u) => u.username },
  { header: 'Email', value: (u) => u.email },
  { header: 'Role', value: (u) => u.role.name },
  { header: 'Company', value: (u) => u.merchant.business_name ?? '' },
  { header: 'Status', value: (u) => (u.status.id === 1 ? 'Active' : 'Inactive') },
  { header: 'Read Only', value: (u) => (u.is_read_only ? 'Yes' : 'No') },
];

/** A cell a spreadsheet shows as text, never runs. */
export function neutralise(value: string | number): string | number {
  if (typeof value === 'number') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvCell(value: string | number): string {
  const text = String(neutralise(value));
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: (string | number)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function usersCsvStream(batches: AsyncIterable<UserItem[]>): Readable {
  async function* lines() {
    yield csvLine(EXPORT_COLUMNS.map((c) => c.header));
    for await (const users of batches)
      yield users.map((u) => csvLine(EXPORT_COLUMNS.map((c) => c.value(u)))).join('');
  }
  return Readable.from(lines());
}

export function usersXlsxStream(
  batches: AsyncIterable<UserItem[]>,
  onError: (error: unknown) => void,
): PassThrough {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = book.addWorksheet('Users');
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c.header, key: c.header, width: 20 }));
  const fill = async () => {
    for await (const users of batches) {
      for (const u of users) sheet.addRow(EXPORT_COLUMNS.map((c) => neutralise(c.value(u)))).commit();
      // Backpressure: wait while the client has not read what is written.
      if (out.writableNeedDrain) await once(out, 'drain');
    }
    sheet.commit();
    await book.commit();
  };
  fill().catch((error: unknown) => {
    onError(error);
    out.destroy(error instanceof Error ? error : new Error('export failed'));
  });
  return out;
}
