import { createHash } from 'node:crypto';
import type { FEE_CYCLES, MoneyFeeConfig } from '@portal/contracts';
import { readTenantFile, type Db, type Queryable } from '@portal/core';

/**
 * A tenant's money settings (config/tenants `reporting_currency`, `fees`) as the database needs them: the
 * row trigger of migration 040 prices each case from cases.money_settings and cases.money_fees, so the
 * config is copied there. A change of the config reprices the tenant's cases (one UPDATE; the rollup
 * triggers follow). Synced by the seed and before each money read (ensureMoneySettings), so an edited
 * file is in the next answer.
 */
export interface MoneySettings {
  reportingCurrency: string;
  fees: MoneyFeeConfig[];
}

const CYCLE_IDS: Record<(typeof FEE_CYCLES)[number], number> = { first: 1, second: 2, rfi: 9 };

export function moneySettingsOf(config: { reporting_currency?: string; fees?: MoneyFeeConfig[] } | null) {
  return { reportingCurrency: config?.reporting_currency ?? 'USD', fees: config?.fees ?? [] };
}

const hashOf = (s: MoneySettings) =>
  createHash('sha256').update(JSON.stringify(s)).digest('hex').slice(0, 32);

/**
 * Writes the settings when they differ from the stored ones and reprices the tenant's cases; returns
 * whether anything changed (null: the tenant has no data here yet). Runs in the caller's transaction.
 */
export async function syncMoneySettings(
  tx: Queryable,
  tenant: string,
  settings: MoneySettings,
): Promise<boolean | null> {
  const hash = hashOf(settings);
  const { rows } = await tx.query<{ config_hash: string }>(
    `select config_hash from cases.money_settings where tenant_id = $1 for update`,
    [tenant],
  );
  if (rows[0]?.config_hash === hash) return false;
  // A tenant with no data in this service yet has nothing to price (its seed or first case syncs it).
  const known = await tx.query(`select 1 from cases.tenants where id = $1`, [tenant]);
  if (!known.rowCount) return null;
  const { rowCount } = await tx.query(
    `insert into cases.money_settings (tenant_id, reporting_currency_id, config_hash)
     select $1, id, $3 from cases.currencies where code = $2
     on conflict (tenant_id) do update set reporting_currency_id = excluded.reporting_currency_id,
       config_hash = excluded.config_hash`,
    [tenant, settings.reportingCurrency, hash],
  );
  if (!rowCount) throw new Error(`reporting_currency ${settings.reportingCurrency} is not a known currency`);
  await tx.query(`delete from cases.money_fees where tenant_id = $1`, [tenant]);
  if (settings.fees.length)
    await tx.query(
      `insert into cases.money_fees (tenant_id, card_type_id, cycle_id, case_fee, loss_fee)
       select $1, ct.id, f.cycle_id, f.case_fee, f.loss_fee
       from unnest($2::text[], $3::int[], $4::numeric[], $5::numeric[]) as f(network, cycle_id, case_fee, loss_fee)
       join cases.card_types ct on ct.alias = f.network`,
      [
        tenant,
        settings.fees.map((f) => f.card_network),
        settings.fees.map((f) => CYCLE_IDS[f.cycle]),
        settings.fees.map((f) => f.network_fee + f.processor_fee),
        settings.fees.map((f) => f.loss_fee ?? 0),
      ],
    );
  // Naming money_rate fires the pricing trigger on every case of the tenant.
  await tx.query(`update cases.cases set money_rate = null where tenant_id = $1`, [tenant]);
  return true;
}

/** The hash last synced per tenant by this process: a read whose config did not change costs no query. */
const synced = new Map<string, string>();

/** Syncs the tenant's settings from its config file when they changed since this process last looked. */
export async function ensureMoneySettings(db: Db, configDir: string, tenant: string): Promise<void> {
  let config = null;
  try {
    config = readTenantFile(configDir, tenant)?.config ?? null;
  } catch {
    // An invalid file is refused and logged by the gateway; the last synced settings stay.
    return;
  }
  const settings = moneySettingsOf(config);
  const hash = hashOf(settings);
  if (synced.get(tenant) === hash) return;
  const applied = await db.transaction((tx) => syncMoneySettings(tx, tenant, settings));
  if (applied !== null) synced.set(tenant, hash);
}
