/**
 * Case service benchmark (issue 3): seeds SEED_SCALE=large (500,000 cases per
 * demo tenant, 1,000,000 in all) into its own Postgres database, then prints
 * p50/p95 of the list, count and dashboard calls through the Fastify app and
 * the EXPLAIN (ANALYZE, BUFFERS) plan of every SQL statement each call runs.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- case
 *
 * BENCH_RESEED=1 drops and reseeds the large database (kept between runs);
 * BENCH_CASES sets cases per tenant (default 500000); BENCH_RUNS iterations (default 40).
 */
import { it } from 'vitest';
import type { InternalContext } from '@portal/contracts';
import { createLogger } from '@portal/core';
import { contextHeaders, demoUserContext } from '../support/context';
import { admin, BENCH_SECRET, caseBenchApp, explainAll, pct, seedInto } from './bench-db';

const env = process.env;
const CASES = Number(env.BENCH_CASES ?? 500_000);
const RUNS = Number(env.BENCH_RUNS ?? 40);
const DB_NAME = `portal_bench_case_${CASES}`;

it('case service at scale', async () => {
  const log = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 'bench');

  // Default scale seed time (fresh database each run).
  const defaultName = `portal_bench_case_default_${process.pid}`;
  const def = await seedInto(defaultName, 3000, true);
  await def.db.close();
  await admin((c) => c.query(`drop database ${defaultName} with (force)`));
  console.log(`seed default scale (3,000 cases per tenant): ${def.seconds?.toFixed(1)} s`);

  const large = await seedInto(DB_NAME, CASES, env.BENCH_RESEED === '1');
  const stored = await large.db.query<{ seconds: number }>(`select seconds from public.bench_seeded`);
  console.log(
    `seed large scale (${CASES.toLocaleString('en-US')} cases per tenant): ${(large.seconds ?? stored.rows[0]!.seconds).toFixed(1)} s${large.seconds === null ? ' (seeded by an earlier run)' : ''}`,
  );
  const sizes = await large.db.query<{ cases: number; size: string }>(
    `select (select count(*) from cases.cases)::int as cases, pg_size_pretty(pg_total_relation_size('cases.cases')) as size`,
  );
  console.log(`cases: ${sizes.rows[0]!.cases.toLocaleString('en-US')}, table+indexes ${sizes.rows[0]!.size}`);

  const { app, rec } = await caseBenchApp(large.db, log);
  const secret = BENCH_SECRET;
  const user = demoUserContext;
  const today = new Date().toISOString().slice(0, 10);
  const in3 = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const last90 = `${new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10)}|${today}`;
  const sampleOrder = await large.db.query<{ order_id: string }>(
    `select order_id from cases.cases where tenant_id = 'acme' and status_id = 1 and cycle_id = 1 order by id limit 1`,
  );
  const search = sampleOrder.rows[0]!.order_id.slice(0, 8);

  const calls: Array<{ name: string; url: string; ctx: Partial<InternalContext>; target: number }> = [
    {
      name: 'first page by due date (admin, whole tenant)',
      url: '/cm/cases?limit=50&sort_by=date_due&sort_order=asc',
      ctx: user('admin'),
      target: 50,
    },
    {
      name: 'first page by post date desc (admin)',
      url: '/cm/cases?limit=50&sort_by=date_post&sort_order=desc',
      ctx: user('admin'),
      target: 50,
    },
    {
      name: 'first page by due date (partner.admin subtree)',
      url: '/cm/cases?limit=50',
      ctx: user('partner.admin'),
      target: 50,
    },
    {
      name: 'first page by due date (merchant.admin)',
      url: '/cm/cases?limit=50',
      ctx: user('merchant.admin'),
      target: 50,
    },
    {
      name: 'tab working_cases page',
      url: '/cm/cases?limit=50&filter_group=working_cases',
      ctx: user('agent'),
      target: 50,
    },
    {
      name: `filtered: new_cases + cycle 1 + search '${search}'`,
      url: `/cm/cases?limit=50&filter_group=new_cases&cycle=1&search=${encodeURIComponent(search)}`,
      ctx: user('admin'),
      target: 50,
    },
    {
      name: 'filtered: expiring_cases + cycle 1 + search by merchant name',
      url: '/cm/cases?limit=50&filter_group=expiring_cases&cycle=1&search=Blue%20Sky',
      ctx: user('admin'),
      target: 50,
    },
    {
      name: 'deep page start=500000 (admin)',
      url: '/cm/cases?limit=50&start=500000',
      ctx: user('admin'),
      target: 50,
    },
    {
      name: 'deep page start=450000 (admin)',
      url: '/cm/cases?limit=50&start=450000',
      ctx: user('admin'),
      target: 50,
    },
    { name: 'count limit=0 (admin, whole tenant)', url: '/cm/cases?limit=0', ctx: user('admin'), target: 50 },
    {
      name: 'count limit=0 new_cases cycle 1 (partner)',
      url: '/cm/cases?limit=0&filter_group=new_cases&cycle=1',
      ctx: user('partner.admin'),
      target: 50,
    },
    // Read from the indexes alone since migration 045 (10-15 times faster at 1,000,000 cases).
    {
      name: 'Assigned tab, first page (admin)',
      url: '/cm/cases?limit=50&intent=case-management&filter_group=assigned',
      ctx: user('admin'),
      target: 50,
    },
    {
      name: 'list with amount and verdict filters (partner)',
      url: '/cm/cases?limit=50&dispute_amt=100&dispute_amt_operator=>=&verdict_id=3,4',
      ctx: user('partner.admin'),
      target: 50,
    },
    {
      name: 'count limit=0 expiring tile (status_group_id 1,2 + due range)',
      url: `/cm/cases?limit=0&status_group_id=1,2&due_date_range=${today}|${in3}`,
      ctx: user('admin'),
      target: 50,
    },
    {
      name: 'dashboard chargebacks-mtd',
      url: '/cm/cases/dashboard/chargebacks-mtd',
      ctx: user('admin'),
      target: 100,
    },
    {
      name: 'dashboard cases-fraud-pct (90 days)',
      url: `/cm/cases/reports/cases-fraud-pct?date_range=${last90}`,
      ctx: user('admin'),
      target: 100,
    },
    {
      name: 'dashboard mids-count',
      url: `/cm/cases/reports/mids-count?date_range=${last90}`,
      ctx: user('admin'),
      target: 100,
    },
    {
      name: 'dashboard mids-top5 (90 days)',
      url: `/cm/cases/reports/mids-top5?date_range=${last90}&limit=5`,
      ctx: user('admin'),
      target: 100,
    },
    {
      name: 'dashboard chargebacks-by-date-range (90 days)',
      url: `/cm/cases/dashboard/chargebacks-by-date-range?date_range=${last90}`,
      ctx: user('admin'),
      target: 100,
    },
    {
      name: 'report chargebacks-by-status (this month)',
      url: '/cm/cases/reports/chargebacks-by-status',
      ctx: user('admin'),
      target: 100,
    },
    {
      name: 'report chargebacks-by-card-type (this month)',
      url: '/cm/cases/reports/chargebacks-by-card-type?names=Visa,Mastercard,Discover,Amex',
      ctx: user('admin'),
      target: 100,
    },
    {
      name: 'report cases-status-totals',
      url: '/cm/cases/reports/cases-status-totals',
      ctx: user('admin'),
      target: 100,
    },
    {
      name: 'dashboard mids-top5 (merchant.admin)',
      url: `/cm/cases/reports/mids-top5?date_range=${last90}`,
      ctx: user('merchant.admin'),
      target: 100,
    },
  ];

  const results: Array<{ name: string; p50: number; p95: number; target: number; total: unknown }> = [];
  const plans: string[] = [];
  for (const call of calls) {
    const inject = () =>
      app.inject({ method: 'GET', url: call.url, headers: contextHeaders(secret, call.ctx) });
    let last = await inject();
    if (last.statusCode !== 200) throw new Error(`${call.url} answered ${last.statusCode}: ${last.body}`);
    for (let i = 0; i < 3; i++) await inject();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      last = await inject();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const body = JSON.parse(last.body) as {
      pagination?: { total: number };
      count?: number;
      total?: number;
      data?: unknown[];
    };
    results.push({
      name: call.name,
      p50: pct(times, 50),
      p95: pct(times, 95),
      target: call.target,
      total: body.pagination?.total ?? body.count ?? body.total ?? body.data?.length,
    });
    const statements = await rec.capture(inject);
    plans.push(`\n### ${call.name}\nGET ${call.url}`);
    plans.push(...(await explainAll(large.db, statements)));
  }
  await app.close();
  await large.db.close();

  console.log('\nQuery plans (EXPLAIN ANALYZE, BUFFERS):');
  console.log(plans.join('\n'));
  console.log(
    `\nTimings over ${RUNS} runs through the Fastify app (inject), ${(CASES * 2).toLocaleString('en-US')} cases:`,
  );
  console.log(
    `${'call'.padEnd(68)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'target'.padStart(7)}  result`,
  );
  for (const r of results) {
    console.log(
      `${r.name.slice(0, 68).padEnd(68)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${`<${r.target}`.padStart(7)}  ${r.p95 < r.target ? 'ok  ' : 'SLOW'} (${String(r.total)})`,
    );
  }
});
