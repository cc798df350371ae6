import { parse } from 'csv-parse/sync';
import { badRequest, type Env, type Logger } from '@portal/core';
import { parseObjectKey, sharedObjectStore, type ObjectStore } from '@portal/storage';

/**
 * Uploaded CSV files of the case service (onboarding, case updater, ERT):
 * the object store, upload links and a strict CSV reader. Shared by the three
 * features so that every upload is checked the same way.
 */

/** The store of the case service's routes and jobs. */
export const caseObjectStore = (env: Env, log: Logger): Promise<ObjectStore> => sharedObjectStore(env, log);

const CSV_CONTENT_TYPE = 'text/csv';

/** An upload form for one CSV in `area` of the tenant. */
export async function csvUploadLink(
  store: ObjectStore,
  tenant: string,
  area: string,
  filename: string | undefined,
  maxBytes: number,
) {
  return store.createUploadLink({
    tenant,
    area,
    filename: filename && /\.csv$/i.test(filename) ? filename : 'upload.csv',
    contentType: CSV_CONTENT_TYPE,
    maxBytes,
  });
}

/** Reads an uploaded CSV of this tenant and area; a foreign, malformed or missing key reads as 'not found'. */
export async function readCsvObject(
  store: ObjectStore,
  tenant: string,
  area: string,
  key: string,
  maxBytes: number,
  notFoundMessage: string,
): Promise<Buffer> {
  const parsed = parseObjectKey(key);
  if (!parsed || parsed.tenant !== tenant || parsed.area !== area) throw badRequest(notFoundMessage);
  if (!/\.csv$/i.test(parsed.filename)) throw badRequest(notFoundMessage);
  const info = await store.head(tenant, key);
  if (!info) throw badRequest(notFoundMessage);
  if (info.size > maxBytes) throw badRequest('The file is too large.');
  const stream = await store.read(tenant, key);
  if (!stream) throw badRequest(notFoundMessage);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw badRequest('The file is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

interface CsvTable {
  header: string[];
  rows: string[][];
}

/**
 * Parses a UTF-8 CSV (BOM, CRLF and quoted fields allowed). A file that is
 * not valid UTF-8 or not well-formed CSV is refused as a whole, with the
 * line that failed, so nothing is half-read.
 */
export function parseCsv(bytes: Buffer, maxRows: number): CsvTable {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('The file is not valid UTF-8 text. Save the CSV as UTF-8 and upload it again.');
  }
  if (text.includes('\u0000')) throw badRequest('The file is not a CSV text file.');
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      to: maxRows + 2,
    }) as string[][];
  } catch (error) {
    const e = error as { lines?: number; message?: string };
    throw badRequest(
      `The CSV file could not be read (line ${e.lines ?? '?'}): ${String(e.message).slice(0, 200)}`,
    );
  }
  const [header, ...rows] = records;
  if (!header) throw badRequest('The CSV file must contain at least one row.');
  if (rows.length > maxRows)
    throw badRequest(
      `The CSV file has more than ${maxRows.toLocaleString('en-US')} rows; split it into smaller files.`,
    );
  return { header: header.map((h) => h.trim()), rows: rows.filter((r) => r.some((c) => c !== '')) };
}

/**
 * A CSV cell for a file people open in a spreadsheet: cells that a
 * spreadsheet would run as a formula get a leading quote (CSV injection).
 */
export function csvCell(value: string | number | null | undefined): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvText(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
): string {
  return [header.map(csvCell).join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\r\n') + '\r\n';
}
