import ExcelJS from 'exceljs';
import type { UserItem } from '@portal/contracts';

/** Users export (spec 3 §2 Users: CSV, or Excel for USERS_EXPORT_BUTTON holders). */
export const EXPORT_COLUMNS: { header: string; value: (u: UserItem) => string | number | boolean }[] = [
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

function csvCell(value: string | number | boolean): string {
  let text = String(value);
  // A leading =, +, - or @ would run as a formula in a spreadsheet.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function usersCsv(users: UserItem[]): string {
  const lines = [EXPORT_COLUMNS.map((c) => csvCell(c.header)).join(',')];
  for (const u of users) lines.push(EXPORT_COLUMNS.map((c) => csvCell(c.value(u))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export async function usersXlsx(users: UserItem[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Users');
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c.header, key: c.header, width: 20 }));
  for (const u of users) sheet.addRow(EXPORT_COLUMNS.map((c) => c.value(u)));
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}
