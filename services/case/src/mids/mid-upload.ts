import { FIELD_REQUIRED, type MidCreateBody } from '@portal/contracts';
import { badRequest, type HttpError, type Db } from '@portal/core';
import type { Scope } from '../scope/scope';
import { assertMerchantInScope } from '../merchant-admin/access';
import { csvCell, parseCsv } from './csv';
import { insertMid, validateMid } from './mid-writes';

/** Columns of the MID CSV template (GET /cm/templates/mids.csv), in order. */
const MID_CSV_COLUMNS = [
  'mid',
  'alias',
  'descriptor',
  'platform',
  'service_level_id',
  'mcc',
  'caid',
  'wpg_merchant_code',
] as const;
const MID_CSV_MAX_ROWS = 5000;

export function midTemplateCsv(): string {
  const sample = ['5410000099001', 'Main store', 'ACME*STORE', 'First Data', '1', '5411', '', ''];
  return `${MID_CSV_COLUMNS.join(',')}\r\n${sample.map(csvCell).join(',')}\r\n`;
}

interface RowError {
  row: number;
  field: string;
  message: string;
}

/**
 * Creates every MID of a CSV for one merchant, or none: each row is checked
 * first (named by its line number), then all are written in one transaction.
 */
export async function uploadMids(db: Db, scope: Scope, merchantId: number, text: string): Promise<number> {
  let rows: string[][];
  try {
    rows = parseCsv(text);
  } catch {
    throw badRequest('mids: the file is not a valid CSV.');
  }
  const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
  const missing = ['mid', 'alias', 'descriptor', 'platform'].filter((c) => !header.includes(c));
  if (missing.length) throw badRequest(`mids: missing column(s) ${missing.join(', ')}.`);
  if (!rows.length) throw badRequest('mids: the CSV must have at least one row.');
  if (rows.length > MID_CSV_MAX_ROWS) throw badRequest(`mids: at most ${MID_CSV_MAX_ROWS} rows per file.`);
  const { rows: merchant } = await db.query(
    `select 1 from cases.merchants where tenant_id = $1 and id = $2`,
    [scope.tenant, merchantId],
  );
  assertMerchantInScope(scope, merchantId, 'merchant_id', merchant.length > 0);
  const { rows: processors } = await db.query<{ id: number; name: string; alias: string }>(
    `select id, name, alias from cases.processors`,
  );
  const platform = (v: string) => {
    const k = v.trim().toLowerCase();
    return processors.find((p) => String(p.id) === k || p.name.toLowerCase() === k || p.alias === k)?.id ?? 0;
  };

  const errors: RowError[] = [];
  const bodies: MidCreateBody[] = [];
  const seen = new Map<string, number>();
  rows.forEach((cells, i) => {
    const line = i + 2; // 1-based, after the header
    const get = (c: string) => (header.indexOf(c) >= 0 ? (cells[header.indexOf(c)] ?? '').trim() : '');
    const level = get('service_level_id');
    const body: MidCreateBody = {
      merchant_id: merchantId,
      mid: get('mid'),
      alias: get('alias'),
      descriptor: get('descriptor'),
      processor_id: get('platform') ? platform(get('platform')) : 0,
      service_level_id: level === '' ? 1 : /^\d{1,4}$/.test(level) ? Number(level) : -1,
      mcc: get('mcc') || null,
      caid: get('caid') || null,
      wpg_merchant_code: get('wpg_merchant_code') || null,
      mid_type_id: 1,
    };
    if (body.mid && seen.has(body.mid))
      errors.push({ row: line, field: 'mid', message: `MID ${body.mid} repeats row ${seen.get(body.mid)}.` });
    else if (body.mid) seen.set(body.mid, line);
    if (body.service_level_id === -1)
      errors.push({ row: line, field: 'service_level_id', message: FIELD_REQUIRED });
    if (get('platform') && body.processor_id === 0)
      errors.push({ row: line, field: 'platform', message: `Unknown platform ${get('platform')}.` });
    bodies.push(body);
  });
  // The same field checks as the form, row by row.
  for (const [i, body] of bodies.entries()) {
    if (errors.some((e) => e.row === i + 2)) continue;
    try {
      await validateMid(db, body, true);
    } catch (e) {
      const fields = ((e as HttpError).data as { errors?: Record<string, string> } | undefined)?.errors ?? {};
      for (const [field, message] of Object.entries(fields)) errors.push({ row: i + 2, field, message });
    }
  }
  const mids = bodies.map((b) => b.mid!).filter(Boolean);
  const { rows: taken } = await db.query<{ mid: string }>(
    `select mid from cases.mids where tenant_id = $1 and mid = any($2::text[])`,
    [scope.tenant, mids],
  );
  for (const t of taken)
    errors.push({ row: seen.get(t.mid) ?? 0, field: 'mid', message: `MID ${t.mid} already exists.` });
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    const first = errors[0]!;
    throw badRequest(`Row ${first.row}: ${first.field}: ${first.message}`, { errors });
  }
  await db.transaction(async (tx) => {
    for (const body of bodies) await insertMid(tx, scope, body);
  });
  return bodies.length;
}
