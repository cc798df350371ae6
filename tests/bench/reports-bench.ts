/**
 * Reports at scale (issue 18): on the case bench's 1,000,000-case database (500,000 per demo tenant,
 * seeded once and kept between runs, see bench-db.ts), prints p50/p95 and query plans of every report
 * call through the Fastify app. A database seeded before migration 021 gets its sales rows here.
 *
 *   npm run bench -- reports        (BENCH_CASES per tenant, default 500000; BENCH_RUNS, default 30)
 *
 * Target: every report call p95 <= 100 ms.
 */
import { it } from 'vitest';
import { DEMO_TENANTS, REPORT_CHARTS, type InternalContext } from '@portal/contracts';
import { createLogger } from '@portal/core';
import { seedTransactions } from '../../services/case/src/seed/transactions';
import { contextHeaders, demoUserContext } from '../support/context';
import { BENCH_SECRET, caseBenchApp, explainAll, pct, seedInto } from './bench-db';

const env = process.env;
const CASES = Number(env.BENCH_CASES ?? 500_000);
const RUNS = Number(env.BENCH_RUNS ?? 30);
const TARGET_MS = 100;

it('report calls at scale', async () => {
  const log = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 'bench');
  const { db } = await seedInto(`portal_bench_case_${CASES}`, CASES, env.BENCH_RESEED === '1');
  for (const tenant of DEMO_TENANTS) {
    const sales = await db.query(`select 1 from cases.transactions_daily where tenant_id = $1 limit 1`, [
      tenant.id,
    ]);
    if (!sales.rowCount) await db.transaction((tx) => seedTransactions(tx, tenant));
  }
  // The steady state autovacuum keeps (statistics and visibility maps; it is off on some machines, and the
  // alerts bench adds and changes rows in this database).
  await db.query('vacuum analyze');
  const cases = (await db.query<{ n: number }>('select count(*)::int as n from cases.cases')).rows[0]!.n;

  const { app, rec } = await caseBenchApp(db, log);
  const secret = BENCH_SECRET;
  const user = demoUserContext;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const d30 = `date_range=${day(-30)}|${day(0)}`;
  const d180 = `date_range=${day(-180)}|${day(0)}`;
  const calls: Array<{ name: string; url: string; ctx: Partial<InternalContext> }> = [
    ...Object.keys(REPORT_CHARTS).map((chart) => ({
      name: `${chart}, 30 days (admin)`,
      url: `/cm/cases/reports/${chart}?${d30}`,
      ctx: user('admin'),
    })),
    {
      name: 'cases-status-totals, all time (admin)',
      url: '/cm/cases/reports/cases-status-totals',
      ctx: user('admin'),
    },
    { name: 'card-type, 180 days (admin)', url: `/cm/cases/reports/card-type?${d180}`, ctx: user('admin') },
    {
      name: 'cb-non-unique-customers, 180 days (admin)',
      url: `/cm/cases/reports/cb-non-unique-customers?${d180}`,
      ctx: user('admin'),
    },
    {
      name: 'card-type, 30 days (merchant.admin)',
      url: `/cm/cases/reports/card-type?${d30}`,
      ctx: user('merchant.admin'),
    },
    { name: 'res-kpi/chargebacks (admin)', url: '/cm/cases/reports/res-kpi/chargebacks', ctx: user('admin') },
    { name: 'res-kpi/alerts (admin)', url: '/cm/cases/reports/res-kpi/alerts', ctx: user('admin') },
    { name: 'mid-health, 30 days (admin)', url: `/cm/cases/reports/mid-health?${d30}`, ctx: user('admin') },
    {
      name: 'reconciliation, 30 days (admin)',
      url: `/cm/cases/reports/reconciliation?${d30}`,
      ctx: user('admin'),
    },
    { name: 'mtd (admin)', url: '/cm/cases/reports/mtd', ctx: user('admin') },
    { name: 'alerts report, 30 days (admin)', url: `/cm/cases/reports/alerts?${d30}`, ctx: user('admin') },
    { name: 'monitoring (admin)', url: '/cm/cases/reports/monitoring', ctx: user('admin') },
    {
      name: 'win-rate by reason code, 180 days (admin)',
      url: `/cm/cases/reports/win-rate?${d180}`,
      ctx: user('admin'),
    },
  ];
  const rows: Array<{ name: string; p50: number; p95: number }> = [];
  const plans: string[] = [];
  for (const call of calls) {
    const inject = () =>
      app.inject({ method: 'GET', url: call.url, headers: contextHeaders(secret, call.ctx) });
    const first = await inject();
    if (first.statusCode !== 200)
      throw new Error(`GET ${call.url} answered ${first.statusCode}: ${first.body}`);
    for (let i = 0; i < 3; i++) await inject();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await inject();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    rows.push({ name: call.name, p50: pct(times, 50), p95: pct(times, 95) });
    plans.push(`\n### ${call.name}\nGET ${call.url}`, ...(await explainAll(db, await rec.capture(inject))));
  }
  await app.close();
  await db.close();

  console.log('\nQuery plans (EXPLAIN ANALYZE, BUFFERS):');
  console.log(plans.join('\n'));
  console.log(
    `\nTimings over ${RUNS} runs through the Fastify app (inject), ${cases.toLocaleString('en-US')} cases:`,
  );
  console.log(`${'call'.padEnd(64)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'target'.padStart(7)}`);
  for (const r of rows) {
    console.log(
      `${r.name.slice(0, 64).padEnd(64)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${`<${TARGET_MS}`.padStart(7)}  ${r.p95 <= TARGET_MS ? 'ok' : 'SLOW'}`,
    );
  }
});
