import type { DemoTenant } from '@portal/contracts';
import { readTenantFile, type Queryable } from '@portal/core';
import { moneySettingsOf, syncMoneySettings } from '../money/money-settings';

/** Days of rates before the seed day: every post date of the cases (18 months) has one. */
const RATE_DAYS = 600;

/**
 * The money ledger's data of a demo tenant (issue 33), before its cases: the reporting currency and fees
 * of its config file (config/tenants unless told; defaults when it has none) and a rate per day for every
 * other currency the cases use. Rates are a fixed US-dollar value per currency (about the 2025 level) with
 * a slow deterministic wobble of up to 3%, divided by the reporting currency's value that day.
 */
export async function seedMoneySettings(tx: Queryable, tenant: DemoTenant, configDir: string): Promise<void> {
  let config = null;
  try {
    config = readTenantFile(configDir, tenant.id)?.config ?? null;
  } catch {
    config = null;
  }
  await syncMoneySettings(tx, tenant.id, moneySettingsOf(config));
  await tx.query(
    `with usd(currency_id, base) as (values (1, 1.0), (2, 1.08), (3, 1.27), (4, 0.74), (5, 0.66), (6, 0.058)),
     v as (
       select d::date as day, u.currency_id,
         u.base * (1 + 0.03 * sin((d::date - date '2000-01-01') / 40.0 + u.currency_id)) as value
       from usd u cross join generate_series(current_date - $2::int, current_date, interval '1 day') d
     )
     insert into cases.exchange_rates (tenant_id, currency_id, day, rate_to_reporting)
     select $1, v.currency_id, v.day, round((v.value / rep.value)::numeric, 8)
     from v join cases.money_settings s on s.tenant_id = $1
     join v rep on rep.day = v.day and rep.currency_id = s.reporting_currency_id
     where v.currency_id <> s.reporting_currency_id
     on conflict (tenant_id, currency_id, day) do nothing`,
    [tenant.id, RATE_DAYS],
  );
}

/** Partial recoveries: one won case in eight got back 50% to 89% of its amount. */
export async function seedPartialRecoveries(tx: Queryable, tenant: DemoTenant): Promise<void> {
  await tx.query(
    `update cases.cases set recovered_amt = round(dispute_amt * (50 + (hashint8extended(id, 34) & 2147483647) % 40) / 100, 2)
     where tenant_id = $1 and verdict_id = 4 and (hashint8extended(id, 33) & 7) = 0`,
    [tenant.id],
  );
}
