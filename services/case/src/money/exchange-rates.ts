import { parse } from 'csv-parse/sync';
import {
  EXCHANGE_RATES_HEADER,
  type ExchangeRateSummary,
  type ExchangeRatesUploadResult,
} from '@portal/contracts';
import { badRequest, type Db, type Queryable } from '@portal/core';

/**
 * Daily exchange rates to the tenant's reporting currency (cases.exchange_rates, migration 040), loaded
 * by an admin as CSV `date,currency,rate_to_reporting`. All or nothing: one bad row refuses the file with
 * every problem named (row, field), and nothing changes. Loading the same file again changes nothing.
 * A new or changed rate reprices the cases it applies to (the newest rate on or before a case's post
 * date), and the rollups follow through their triggers.
 */
const MAX_ROWS = 50_000;
const MAX_VIOLATIONS = 20;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RATE = /^\d{1,9}(\.\d{1,8})?$/;

export interface RateRow {
  day: string;
  currencyId: number;
  rate: string;
}
interface Violation {
  row: number;
  field: string;
  message: string;
}

const validDay = (s: string) => DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

/** The rows of an upload, checked against the currencies lookup and the tenant's reporting currency. */
export async function parseRatesCsv(db: Queryable, tenant: string, text: string): Promise<RateRow[]> {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (error) {
    throw badRequest(`The file is not a readable CSV: ${(error as Error).message}`);
  }
  const header = (records.shift() ?? []).map((h) => h.toLowerCase()).join(',');
  if (header !== EXCHANGE_RATES_HEADER)
    throw badRequest(`The first line must be the header '${EXCHANGE_RATES_HEADER}'.`);
  if (!records.length) throw badRequest('The file has no rates.');
  if (records.length > MAX_ROWS) throw badRequest(`The file has more than ${MAX_ROWS} rates.`);
  const { rows: currencies } = await db.query<{ id: number; code: string; reporting: boolean }>(
    `select c.id, c.code, c.id = coalesce(s.reporting_currency_id, 1) as reporting
     from cases.currencies c left join cases.money_settings s on s.tenant_id = $1`,
    [tenant],
  );
  const byCode = new Map(currencies.map((c) => [c.code, c]));
  const violations: Violation[] = [];
  const seen = new Set<string>();
  const rows: RateRow[] = [];
  records.forEach((cells, i) => {
    const row = i + 2;
    const problem = (field: string, message: string) => violations.push({ row, field, message });
    if (cells.length !== 3) return problem('row', `expected 3 values, found ${cells.length}`);
    const [day = '', code = '', rate = ''] = cells;
    const currency = byCode.get(code.toUpperCase());
    if (!validDay(day)) problem('date', `'${day}' is not a date (yyyy-MM-dd)`);
    if (!currency) problem('currency', `'${code}' is not a known currency code`);
    else if (currency.reporting)
      problem('currency', `${currency.code} is the reporting currency (its rate is always 1)`);
    if (!RATE.test(rate) || Number(rate) <= 0)
      problem('rate_to_reporting', `'${rate}' is not a positive number (up to 8 decimals)`);
    if (!currency || !validDay(day)) return;
    const key = `${day}/${currency.id}`;
    if (seen.has(key)) problem('row', `a second rate for ${currency.code} on ${day}`);
    seen.add(key);
    rows.push({ day, currencyId: currency.id, rate });
  });
  if (violations.length) {
    const shown = violations.slice(0, MAX_VIOLATIONS);
    throw badRequest(
      `${violations.length} problem${violations.length === 1 ? '' : 's'} in the file, nothing was loaded: ` +
        shown.map((v) => `row ${v.row} ${v.field}: ${v.message}`).join('; '),
      { violations: shown },
    );
  }
  return rows;
}

/** Upserts the rates and reprices the cases they apply to, in one transaction. */
export async function loadRates(db: Db, tenant: string, rows: RateRow[]): Promise<ExchangeRatesUploadResult> {
  return db.transaction(async (tx) => {
    const { rows: written } = await tx.query<{ currency_id: number; day: string }>(
      `insert into cases.exchange_rates as e (tenant_id, currency_id, day, rate_to_reporting)
       select $1, u.currency_id, u.day, u.rate
       from unnest($2::int[], $3::date[], $4::numeric[]) as u(currency_id, day, rate)
       on conflict (tenant_id, currency_id, day) do update set rate_to_reporting = excluded.rate_to_reporting
       where e.rate_to_reporting is distinct from excluded.rate_to_reporting
       returning e.currency_id, e.day::text as day`,
      [tenant, rows.map((r) => r.currencyId), rows.map((r) => r.day), rows.map((r) => r.rate)],
    );
    let repriced = 0;
    if (written.length) {
      // A rate applies from its day on: the cases posted since the earliest changed day of each currency.
      const from = new Map<number, string>();
      for (const w of written) {
        const known = from.get(w.currency_id);
        if (!known || w.day < known) from.set(w.currency_id, w.day);
      }
      const result = await tx.query(
        `update cases.cases c set money_rate = null
         from unnest($2::int[], $3::date[]) as f(currency_id, day)
         where c.tenant_id = $1 and c.dispute_currency_id = f.currency_id and c.date_post >= f.day
           and c.money_rate is distinct from cases.money_rate_of(c.tenant_id, c.dispute_currency_id, c.date_post)`,
        [tenant, [...from.keys()], [...from.values()]],
      );
      repriced = result.rowCount ?? 0;
    }
    return { upserted: written.length, unchanged: rows.length - written.length, repriced_cases: repriced };
  });
}

/** Per currency: the days loaded and the newest rate; and the cases still without one. */
export async function rateSummary(db: Queryable, tenant: string): Promise<ExchangeRateSummary> {
  const { rows } = await db.query<{
    currency_id: number;
    currency: string;
    first_day: string;
    last_day: string;
    days: number;
    latest_rate: string;
  }>(
    `select e.currency_id, c.code as currency, min(e.day)::text as first_day, max(e.day)::text as last_day,
       count(*)::int as days, (array_agg(e.rate_to_reporting order by e.day desc))[1] as latest_rate
     from cases.exchange_rates e join cases.currencies c on c.id = e.currency_id
     where e.tenant_id = $1 group by 1, 2 order by 2`,
    [tenant],
  );
  const { rows: meta } = await db.query<{ code: string; unrated: number }>(
    `select (select c.code from cases.currencies c
             where c.id = coalesce((select reporting_currency_id from cases.money_settings where tenant_id = $1), 1)) as code,
       coalesce((select sum(unrated) from cases.report_monthly where tenant_id = $1 and ref = 1), 0)::int as unrated`,
    [tenant],
  );
  return {
    reporting_currency: meta[0]?.code ?? 'USD',
    data: rows.map((r) => ({ ...r, latest_rate: Number(r.latest_rate) })),
    unrated_cases: Number(meta[0]?.unrated ?? 0),
  };
}
