import { DEMO_TENANTS } from '@portal/contracts';
import type { Db, Queryable } from '@portal/core';
import { seedAlerts } from './alerts';
import { seedBulkJobs } from './bulk-jobs';
import { seedCaseRows } from './cases';
import { seedErts } from './ert';
import { seedIssuerDocs } from './issuer-docs';
import { seedMerchants } from './merchants';
import { seedMoneySettings, seedPartialRecoveries } from './money';
import { seedNewCaseIntake } from './new-case-intake';
import { seedOnboardingFiles } from './onboarding-files';
import { seedRdrRules } from './rdr-rules';
import { seedRemedyCases } from './remedy-cases';
import { seedTransactions } from './transactions';
import { seedUpdaterHistory } from './updater-history';
import { seedCaseEvidence, seedWinOddsModels } from './win-odds-outcomes';

export interface SeedOptions {
  /** Cases per tenant. */
  cases: number;
  /** Where the demo tenants' config files are (their money settings); default TENANT_CONFIG_DIR's default. */
  configDir?: string;
}

/**
 * Drops the secondary indexes and foreign keys of cases.cases; returns the
 * statements that recreate them after the insert: a sorted index build and
 * one validating join per key beat ~20 index inserts and ~14 key lookups per
 * row (3x faster at the default scale on PGlite, minutes at the large one).
 */
async function dropCaseIndexesAndKeys(tx: Queryable): Promise<string[]> {
  const indexes = await tx.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes
     where schemaname = 'cases' and tablename = 'cases' and indexname <> 'cases_pkey' order by indexname`,
  );
  const keys = await tx.query<{ name: string; def: string }>(
    `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
     where conrelid = 'cases.cases'::regclass and contype = 'f' order by conname`,
  );
  for (const k of keys.rows) await tx.query(`alter table cases.cases drop constraint ${k.name}`);
  for (const r of indexes.rows) await tx.query(`drop index cases.${r.name}`);
  return [
    ...indexes.rows.map((r) => r.def),
    ...keys.rows.map((k) => `alter table cases.cases add constraint ${k.name} ${k.def}`),
  ];
}

/**
 * Deterministic demo data of the case service (design §6): the demo tenants,
 * their merchant hierarchy (demo.ts ids plus generated merchants), MIDs with
 * descriptors and deflectors, the assignable staff and the cases; then the
 * history of the screens that work on them (ERTs, case updater uploads,
 * onboarding files, RDR rules, bulk close and auto refund jobs), written once the case indexes are back.
 */
export async function seedCases(db: Db, options: SeedOptions): Promise<void> {
  await db.transaction(async (tx) => {
    const recreate = await dropCaseIndexesAndKeys(tx);
    for (const tenant of DEMO_TENANTS) {
      await tx.query(`insert into cases.tenants (id, name) values ($1, $2) on conflict (id) do nothing`, [
        tenant.id,
        tenant.name,
      ]);
      await seedMerchants(tx, tenant, options.cases);
      await seedMoneySettings(tx, tenant, options.configDir ?? 'config/tenants');
      await seedCaseRows(tx, tenant, options.cases);
      await seedCaseEvidence(tx, tenant);
      await seedPartialRecoveries(tx, tenant);
      await seedNewCaseIntake(tx, tenant);
      await seedRemedyCases(tx, tenant);
      await seedIssuerDocs(tx, tenant);
      await seedAlerts(tx, tenant, options.cases);
      await seedTransactions(tx, tenant);
    }
    await tx.query(`set local maintenance_work_mem = '256MB'`);
    for (const statement of recreate) await tx.query(statement);
    for (const tenant of DEMO_TENANTS) {
      await seedErts(tx, tenant);
      await seedUpdaterHistory(tx, tenant);
      await seedOnboardingFiles(tx, tenant);
      await seedRdrRules(tx, tenant);
      await seedBulkJobs(tx, tenant);
    }
    // The seed's own updates and each tenant's rollup rebuild left the daily rollups at twice their size,
    // a range's rows spread over the table: rewritten in key order, a year of a tenant's report rows is one
    // stretch of pages (a report over 365 days at 1,000,000 cases read 1.3 GB before).
    await tx.query('cluster cases.report_daily using report_daily_pkey');
    await tx.query('cluster cases.mid_daily using mid_daily_pkey');
  });
  // Fresh statistics and visibility map of every table the seed wrote: index-only scans and sound plans
  // from the first query (a 1,000,000-case seed left report_monthly two-thirds dead rows, and alerts,
  // alert_history and card_chargebacks without statistics, until autovacuum came round). On the embedded
  // PGlite of `npm start` (its small seed) the four tables the lists and reports lean on: all 72 took 2 s
  // more of a newcomer's first start.
  const { rows: tables } =
    db.kind === 'postgres'
      ? await db.query<{ name: string }>(
          `select quote_ident(tablename) as name from pg_tables where schemaname = 'cases' order by tablename`,
        )
      : { rows: ['cases', 'case_counts', 'report_daily', 'mid_daily'].map((name) => ({ name })) };
  for (const { name } of tables) await db.query(`vacuum analyze cases.${name}`);
  await seedWinOddsModels(db, options.configDir);
}
