/**
 * The money ledger at scale (issue 33): the dashboard's Recovered tile and the /reports 'Recovered
 * revenue' section (by month, reason code and MID, and its CSV) through the Fastify app, p50/p95 and
 * the query plans, on the case bench's database (bench-db.ts: BENCH_CASES per demo tenant, seeded once
 * and kept; the reports bench uses the same one). A database seeded before migration 040 gets its money
 * settings and a year and more of exchange rates here (which prices every case once: minutes at 500,000
 * per tenant).
 *
 *   npm run bench -- money          (BENCH_CASES per tenant, default 500000; BENCH_RUNS, default 30)
 *   BENCH_CASES=3000 npm run bench -- money     (the default seed's scale)
 *
 * Target: every call p95 <= 100 ms (the report target).
 */
import { it } from 'vitest';
import { DEMO_TENANTS, type InternalContext } from '@portal/contracts';
import { createLogger } from '@portal/core';
import { seedMoneySettings } from '../../services/case/src/seed/money';
import { contextHeaders, demoUserContext } from '../support/context';
import { BENCH_SECRET, caseBenchApp, explainAll, pct, seedInto } from './bench-db';

const env = process.env;
const CASES = Number(env.BENCH_CASES ?? 500_000);
const RUNS = Number(env.BENCH_RUNS ?? 30);
const TARGET_MS = 100;

it('money ledger calls at scale', async () => {
  const log = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 'bench');
  const { db } = await seedInto(`portal_bench_case_${CASES}`, CASES, env.BENCH_RESEED === '1');
  for (const tenant of DEMO_TENANTS) {
    const priced = await db.query(`select 1 from cases.money_settings where tenant_id = $1`, [tenant.id]);
    if (!priced.rowCount) await db.transaction((tx) => seedMoneySettings(tx, tenant, 'config/tenants'));
  }
  await db.query('vacuum analyze');
  const cases = (await db.query<{ n: number }>('select count(*)::int as n from cases.cases')).rows[0]!.n;

  const { app, rec } = await caseBenchApp(db, log);
  const user = demoUserContext;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const d30 = `date_range=${day(-30)}|${day(0)}`;
  const d365 = `date_range=${day(-365)}|${day(0)}`;
  const section = '/cm/cases/reports/recovered-revenue';
  const calls: Array<{ name: string; url: string; ctx: Partial<InternalContext> }> = [
    { name: 'Recovered tile (admin)', url: '/cm/cases/dashboard/recovered', ctx: user('admin') },
    {
      name: 'Recovered tile (merchant.admin)',
      url: '/cm/cases/dashboard/recovered',
      ctx: user('merchant.admin'),
    },
    {
      name: 'section by month, 30 days (admin)',
      url: `${section}?${d30}&group_by=month`,
      ctx: user('admin'),
    },
    {
      name: 'section by month, 365 days (admin)',
      url: `${section}?${d365}&group_by=month`,
      ctx: user('admin'),
    },
    { name: 'section by MID, 365 days (admin)', url: `${section}?${d365}&group_by=mid`, ctx: user('admin') },
    {
      name: 'section by reason code, 30 days (admin)',
      url: `${section}?${d30}&group_by=reason_code`,
      ctx: user('admin'),
    },
    {
      name: 'section by reason code, 365 days (admin)',
      url: `${section}?${d365}&group_by=reason_code`,
      ctx: user('admin'),
    },
    {
      name: 'section by month, 365 days (merchant.admin)',
      url: `${section}?${d365}&group_by=month`,
      ctx: user('merchant.admin'),
    },
    { name: 'CSV by MID, 365 days (admin)', url: `${section}.csv?${d365}&group_by=mid`, ctx: user('admin') },
  ];
  const rows: Array<{ name: string; p50: number; p95: number }> = [];
  const plans: string[] = [];
  for (const call of calls) {
    const inject = () =>
      app.inject({ method: 'GET', url: call.url, headers: contextHeaders(BENCH_SECRET, call.ctx) });
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
  console.log(`${'call'.padEnd(56)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'target'.padStart(7)}`);
  for (const r of rows) {
    console.log(
      `${r.name.slice(0, 56).padEnd(56)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${`<${TARGET_MS}`.padStart(7)}  ${r.p95 <= TARGET_MS ? 'ok' : 'SLOW'}`,
    );
  }
});
