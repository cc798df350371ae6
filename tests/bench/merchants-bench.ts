/**
 * Merchant hierarchy and MIDs at scale (issue 15, Figures): one demo tenant
 * (acme) holding BENCH_MERCHANTS merchants in a realistic tree (root -> a few
 * partners -> ISO offices -> merchants -> sub-merchants, several levels deep,
 * plus many merchants directly under the root) and BENCH_MIDS MIDs with
 * descriptors and deflectors, one large merchant (the demo merchantA1) holding
 * a tenth of them. Built once with set-based SQL in its own database (kept
 * between runs, marked when complete; BENCH_RESEED=1 rebuilds), then p50/p95
 * and CPU time per request through the case service's Fastify app (inject) of
 * the merchant tree page (first and a deep page), opening a node (parent_id),
 * the mids_tile_clicked path to a deep merchant, tree search, the flat
 * merchant list with a filter and the Merchant Settings MIDs grid (pages of
 * 50, by MID, searched), for provider staff and for partner and merchant
 * admins scoped to their subtree. Prints EXPLAIN (ANALYZE, BUFFERS) of the
 * admin's first tree page, the MID searches and the slowest call's SQL
 * (BENCH_PLANS=all: of every call).
 *
 *   npm run bench -- merchants     (BENCH_MERCHANTS, default 10000; BENCH_MIDS, default 100000; BENCH_RUNS, default 40)
 *
 * Target: p95 <= 50 ms for each call.
 */
import { it } from 'vitest';
import { demoMerchantId, demoTenant, tenantIdBase, type InternalContext } from '@portal/contracts';
import { createLogger, type Db } from '@portal/core';
import { contextHeaders, demoUserContext } from '../support/context';
import { BENCH_SECRET, caseBenchApp, explainAll, pct, seedInto } from './bench-db';

const env = process.env;
const MERCHANTS = Number(env.BENCH_MERCHANTS ?? 10_000);
const MIDS = Number(env.BENCH_MIDS ?? 100_000);
const RUNS = Number(env.BENCH_RUNS ?? 40);
const TARGET_MS = 50;
/** A call still running after this is cancelled and reported as timed out (BENCH_CALL_TIMEOUT_MS). */
const CALL_TIMEOUT_MS = Number(env.BENCH_CALL_TIMEOUT_MS ?? 15_000);
/** Cases per tenant of the underlying case seed: few, the figures are about merchants and MIDs. */
const CASES = 2_000;
const DB_NAME =
  MERCHANTS === 10_000 && MIDS === 100_000
    ? 'portal_bench_merchants'
    : `portal_bench_merchants_${MERCHANTS}_${MIDS}`;

const acme = demoTenant('acme');
/** Id blocks of the bench rows inside the tenant's million (the demo seed uses lower offsets of each table). */
const MERCHANT_BASE = tenantIdBase(acme) + 10_000;
const MID_BASE = tenantIdBase(acme) + 600_000;
const DESCRIPTOR_BASE = tenantIdBase(acme) + 800_000;
/** New partners under the root (the demo partnerA and partnerB make two more) and ISO offices under them. */
const PARTNERS = 6;
const ISOS = 40;
const PARTNER_NAMES = [
  'Atlas Merchant Group',
  'Keystone Payments',
  'Riverbend ISO',
  'Northstar Partners',
  'Bluewater Acquiring',
  'Pinnacle Processing',
];
const WORDS_A = [
  'Golden',
  'Urban',
  'Silver',
  'Pacific',
  'Maple',
  'Granite',
  'Lucky',
  'Bright',
  'Cedar',
  'Prairie',
  'Coastal',
  'Royal',
  'Velvet',
  'Iron',
  'Sunset',
  'Crimson',
];
const WORDS_B = [
  'Goods',
  'Apparel',
  'Gadgets',
  'Travel',
  'Fitness',
  'Books',
  'Games',
  'Pets',
  'Beauty',
  'Supplements',
  'Tickets',
  'Software',
  'Furniture',
  'Jewelry',
  'Outdoors',
  'Streaming',
];
const SUFFIXES = ['LLC', 'Inc', 'Co', 'Store', 'Online', 'Ltd', 'Group', 'Shop'];
const CHANNELS = ['Web', 'Mobile', 'POS', 'Recurring', 'MOTO', 'Trial'];
const MCCS = ['5999', '5311', '5732', '4722', '7997', '5815', '5968', '5912'];

/** Two independent pseudo-random fractions in [0, 1) of the integer expression `g` (multiplicative hashing). */
const hash = (g: string) =>
  `((${g})::bigint * 2654435761 % 4294967296)::float8 / 4294967296 as h1,
   (((${g})::bigint * 2246822519 + 374761393) % 4294967296)::float8 / 4294967296 as h2`;

/**
 * Tops the tenant up to MERCHANTS merchants and MIDS MIDs, in one transaction with a marker, so an
 * interrupted build is rebuilt next time. Returns the seconds it took, null when an earlier run built it.
 */
async function buildHierarchy(db: Db): Promise<number | null> {
  const marker = await db.query(`select to_regclass('public.bench_merchants_seeded') as t`);
  if ((marker.rows[0] as { t: string | null }).t) return null;
  const started = performance.now();
  const root = demoMerchantId(acme, 'root');
  const large = demoMerchantId(acme, 'merchantA1');
  await db.transaction(async (tx) => {
    const count = async (table: string) =>
      (
        await tx.query<{ n: number }>(`select count(*)::int as n from cases.${table} where tenant_id = $1`, [
          acme.id,
        ])
      ).rows[0]!.n;
    const n = MERCHANTS - (await count('merchants'));
    const mids = MIDS - (await count('mids'));
    const direct = Math.round(n * 0.3);
    const underIsos = Math.round(n * 0.45);
    const partners = [
      demoMerchantId(acme, 'partnerA'),
      demoMerchantId(acme, 'partnerB'),
      ...Array.from({ length: PARTNERS }, (_, i) => MERCHANT_BASE + i + 1),
    ];
    const firstMerchant = PARTNERS + ISOS + 1;
    // g in (0, PARTNERS]: partners under the root; then ISO offices spread over the eight partners; then
    // merchants straight under the root; then merchants under ISOs and partners (a few large offices, many
    // small: index floor(48 h^2)); the rest are sub-merchants of an earlier merchant (brands, stores), so
    // chains run five and more levels deep.
    await tx.query(
      `insert into cases.merchants (id, tenant_id, parent_id, business_name, alias, partner_company_id, status_id,
         date_created, business_address, city, state, zip, country_id, business_phone, contact_username, contact_fname,
         contact_lname, contact_email, direct_api, service_level_id, show_alerts_banner, allowed_domains)
       select $1::bigint + g, $2, parent, name, lower(regexp_replace(name, '[^A-Za-z0-9]+', '-', 'g')),
         case when g <= $5 then 'PC-B' || lpad(g::text, 4, '0') end, case when h2 < 0.06 then 2 else 1 end,
         now() - make_interval(days => (h1 * 2000)::int), g || ' Commerce Blvd', 'Phoenix', 'AZ',
         '850' || lpad((g % 100)::text, 2, '0'), 1 + g % 10, '+1 602 555 ' || lpad((g % 10000)::text, 4, '0'),
         'owner' || g, 'Sam', 'Owner' || g, 'owner' || g || '@merchant' || g || '.example', g % 4 = 0,
         ($12::int[])[1 + g % 3], g % 50 = 0, array['merchant' || g || '.example']
       from (
         select g, h1, h2,
           case
             when g <= $5 then $3::bigint
             when g <= $5 + $6 then ($4::bigint[])[1 + g % 8]
             when g <= $5 + $6 + $7 then $3::bigint
             when g <= $5 + $6 + $7 + $8 then
               case when floor(48 * h1 * h1) < 8 then ($4::bigint[])[1 + floor(48 * h1 * h1)::int]
                    else $1::bigint + $5 + floor(48 * h1 * h1)::int - 7 end
             else $1::bigint + $5 + $6 + 1 + floor((g - $5 - $6 - 1) * h2)::bigint
           end as parent,
           case
             when g <= $5 then ($9::text[])[g]
             when g <= $5 + $6 then ($10::text[])[1 + g % 16] || ' Sales Office ' || g
             else ($10::text[])[1 + floor(h1 * 16)::int] || ' ' || ($11::text[])[1 + g % 16] || ' '
               || ($13::text[])[1 + (g / 16) % 8] || ' ' || g
           end as name
         from generate_series(1, $14::int) g cross join lateral (select ${hash('g')}) h
       ) s`,
      [
        MERCHANT_BASE,
        acme.id,
        root,
        partners,
        PARTNERS,
        ISOS,
        direct,
        underIsos,
        PARTNER_NAMES,
        WORDS_A,
        WORDS_B,
        [1, 3, 5],
        SUFFIXES,
        n,
      ],
    );
    // Merchant-level deflectors on every fifth merchant.
    await tx.query(
      `insert into cases.merchant_deflectors (tenant_id, merchant_id, deflector_id, status_id)
       select $2, $1::bigint + g, f.id, 1 + ((g + f.id) % 3)::int
       from generate_series(1, $3::int) g cross join cases.deflectors f where g % 5 = 0 and (g + f.id) % 2 = 0`,
      [MERCHANT_BASE, acme.id, n],
    );
    // A tenth of the MIDs on the large merchant; the others on the merchants below partners and ISOs,
    // heavy-tailed (index floor(count h^2)): a few merchants with hundreds, many with a handful, some with none.
    await tx.query(
      `insert into cases.mids (id, tenant_id, merchant_id, mid, alias, processor_id, status_id, date_created, mcc, caid,
         service_level_id, wpg_merchant_code, mid_type_id, inherit_merchant_deflectors)
       select $1::bigint + g, $2,
         case when g <= $4 then $3::bigint else $5::bigint + $6 + floor($7 * h1 * h1)::bigint end,
         '4' || lpad((g::bigint * 48271 % 2147483647)::text, 14, '0'),
         case when g % 10 < 3 then null
              else ($8::text[])[1 + floor(h2 * 16)::int] || ' ' || ($9::text[])[1 + g % 6] || ' ' || (g % 1000) end,
         1 + g % 8, case when g % 7 = 0 then 1 else 2 end, now() - make_interval(days => (h2 * 1100)::int),
         ($10::text[])[1 + g % 8], case when g % 4 = 0 then null else lpad((g * 7)::text, 8, '0') end,
         (array[1, 3, 5])[1 + g % 3], case when 1 + g % 8 = 3 then 'WPG' || g end, 1, g % 10 = 0
       from generate_series(1, $11::int) g cross join lateral (select ${hash('g + 7')}) h`,
      [
        MID_BASE,
        acme.id,
        large,
        Math.round(mids * 0.1),
        MERCHANT_BASE,
        firstMerchant,
        n - firstMerchant + 1,
        WORDS_A,
        CHANNELS,
        MCCS,
        mids,
      ],
    );
    await tx.query(
      `insert into cases.descriptors (id, tenant_id, mid_id, descriptor)
       select $1::bigint + row_number() over (order by mi.id, k), $2, mi.id,
         upper(left(regexp_replace(m.business_name, '[^A-Za-z]', '', 'g'), 14)) || '*' || right(mi.mid, 4)
           || case when k = 2 then ' ONLINE' else '' end
       from cases.mids mi join cases.merchants m on m.id = mi.merchant_id
       cross join lateral generate_series(1, case when mi.id % 3 = 0 then 2 else 1 end) k
       where mi.tenant_id = $2 and mi.id > $3`,
      [DESCRIPTOR_BASE, acme.id, MID_BASE],
    );
    await tx.query(
      `insert into cases.mid_deflectors (tenant_id, mid_id, deflector_id, status_id)
       select $1, mi.id, f.id, 1 + ((mi.id + f.id * 3) % 3)::int
       from cases.mids mi cross join cases.deflectors f
       where mi.tenant_id = $1 and mi.id > $2 and (mi.id + f.id) % 4 <> 0`,
      [acme.id, MID_BASE],
    );
    const seconds = (performance.now() - started) / 1000;
    await tx.query(`create table public.bench_merchants_seeded (seconds float8 not null)`);
    await tx.query(`insert into public.bench_merchants_seeded values ($1)`, [seconds]);
  });
  // Statistics and visibility map, as autovacuum keeps them.
  for (const t of ['merchants', 'merchant_deflectors', 'mids', 'descriptors', 'mid_deflectors'])
    await db.query(`vacuum analyze cases.${t}`);
  return (performance.now() - started) / 1000;
}

it('merchant tree, merchant list and MIDs grid at scale', async () => {
  const log = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 'bench');
  const seeded = await seedInto(DB_NAME, CASES, env.BENCH_RESEED === '1');
  const db = seeded.db;
  const built = await buildHierarchy(db);
  const stats = (
    await db.query<{
      merchants: number;
      mids: number;
      descriptors: number;
      deflectors: number;
      depth: number;
    }>(
      `select (select count(*)::int from cases.merchants where tenant_id = $1) as merchants,
         (select count(*)::int from cases.mids where tenant_id = $1) as mids,
         (select count(*)::int from cases.descriptors where tenant_id = $1) as descriptors,
         (select count(*)::int from cases.mid_deflectors where tenant_id = $1) as deflectors,
         (with recursive t(id, depth) as (
            select id, 0 from cases.merchants where tenant_id = $1 and parent_id is null
            union all select m.id, t.depth + 1 from cases.merchants m join t on m.parent_id = t.id where m.tenant_id = $1
          ) select max(depth)::int from t) as depth`,
      [acme.id],
    )
  ).rows[0]!;
  console.log(
    `${DB_NAME}: ${built === null ? 'built by an earlier run' : `built in ${built.toFixed(1)} s`}; acme holds ` +
      `${stats.merchants.toLocaleString('en-US')} merchants (tree depth ${stats.depth}), ${stats.mids.toLocaleString('en-US')} MIDs, ` +
      `${stats.descriptors.toLocaleString('en-US')} descriptors, ${stats.deflectors.toLocaleString('en-US')} MID deflectors`,
  );

  const { app, rec } = await caseBenchApp(db, log);
  const secret = BENCH_SECRET;
  const user = demoUserContext;
  const root = demoMerchantId(acme, 'root');
  const partnerA = demoMerchantId(acme, 'partnerA');
  const large = demoMerchantId(acme, 'merchantA1');
  const childrenOf = async (id: number) =>
    (
      await db.query<{ n: number }>(
        `select count(*)::int as n from cases.merchants where tenant_id = $1 and parent_id = $2`,
        [acme.id, id],
      )
    ).rows[0]!.n;
  const rootChildren = await childrenOf(root);
  const deepStart = Math.max(0, Math.floor((rootChildren - 1) / 20) * 20);
  const largeMids = (
    await db.query<{ n: number }>(`select count(*)::int as n from cases.mids where merchant_id = $1`, [large])
  ).rows[0]!.n;
  const page100 = Math.min(4950, Math.max(0, Math.floor((largeMids - 1) / 50) * 50));
  const tree = `/cm/merchants/list?limit=20&sort_order=asc&sort_by=business_name`;
  // A merchant at the tree's deepest level (the mids_tile_clicked path to it is the longest).
  const deepest = (
    await db.query<{ id: number }>(
      `with recursive t(id, depth) as (
         select id, 0 from cases.merchants where tenant_id = $1 and parent_id is null
         union all select m.id, t.depth + 1 from cases.merchants m join t on m.parent_id = t.id where m.tenant_id = $1
       ) select id from t order by depth desc, id limit 1`,
      [acme.id],
    )
  ).rows[0]!.id;
  const grid = `/cm/merchants/${large}/mids?limit=50`;

  type Call = { name: string; url: string; ctx: Partial<InternalContext> };
  const calls: Call[] = [
    {
      name: `tree, first page (admin, root: ${rootChildren} children)`,
      url: `${tree}&start=0`,
      ctx: user('admin'),
    },
    {
      name: `tree, last page start=${deepStart} (admin)`,
      url: `${tree}&start=${deepStart}`,
      ctx: user('admin'),
    },
    {
      name: `tree, open partnerA: children page 1 (admin)`,
      url: `${tree}&start=0&parent_id=${partnerA}`,
      ctx: user('admin'),
    },
    {
      name: `tree, mids_tile_clicked path to a deep merchant (admin)`,
      url: `${tree}&start=0&search_merchant_id=${deepest}`,
      ctx: user('admin'),
    },
    {
      name: `tree, search 'cedar books' (admin)`,
      url: `${tree}&start=0&search=cedar%20books`,
      ctx: user('admin'),
    },
    { name: `tree, search 'cedar' page 2 (admin)`, url: `${tree}&start=20&search=cedar`, ctx: user('admin') },
    {
      name: `tree, first page (partner.admin, ${await childrenOf(partnerA)} children)`,
      url: `${tree}&start=0`,
      ctx: user('partner.admin'),
    },
    {
      name: `tree, search 'cedar' (partner.admin)`,
      url: `${tree}&start=0&search=cedar`,
      ctx: user('partner.admin'),
    },
    {
      name: `merchant list, search 'cedar' + active (admin)`,
      url: `/cm/merchants?search=cedar&status_id=1&limit=50`,
      ctx: user('admin'),
    },
    {
      name: `merchant list, active, page 20 (admin)`,
      url: `/cm/merchants?status_id=1&start=950&limit=50`,
      ctx: user('admin'),
    },
    {
      name: `merchant list, search 'cedar' + active (partner.admin)`,
      url: `/cm/merchants?search=cedar&status_id=1&limit=50`,
      ctx: user('partner.admin'),
    },
    {
      name: `MIDs grid, first page of ${largeMids} (admin)`,
      url: `${grid}&start=0`,
      ctx: user('admin'),
    },
    { name: `MIDs grid, start=${page100} (admin)`, url: `${grid}&start=${page100}`, ctx: user('admin') },
    { name: `MIDs grid, search '4711' (admin)`, url: `${grid}&start=0&search=4711`, ctx: user('admin') },
    { name: `MIDs grid, search 'online' (admin)`, url: `${grid}&start=0&search=online`, ctx: user('admin') },
    { name: `MIDs grid, first page (partner.admin)`, url: `${grid}&start=0`, ctx: user('partner.admin') },
    {
      name: `MIDs grid, search '4711' (merchant.admin)`,
      url: `${grid}&start=0&search=4711`,
      ctx: user('merchant.admin'),
    },
  ];
  type Row = {
    name: string;
    runs: number;
    p50: number;
    p95: number;
    cpu: number;
    kb: number;
    timedOut: boolean;
    statements: Array<{ sql: string; params: readonly unknown[] }>;
  };
  /** Cancels the bench's own statements still running in its database (a call past CALL_TIMEOUT_MS). */
  const cancelRunning = () =>
    db.query(
      `select pg_cancel_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`,
    );
  const rows: Row[] = [];
  for (const call of calls) {
    const inject = () =>
      app.inject({ method: 'GET', url: call.url, headers: contextHeaders(secret, call.ctx) });
    // The first call, its SQL recorded; one past CALL_TIMEOUT_MS is cancelled and reported, not timed.
    const box: { first?: Awaited<ReturnType<typeof inject>> | 'timeout' } = {};
    const t0 = performance.now();
    const statements = await rec.capture(async () => {
      const pending = inject();
      let timer: NodeJS.Timeout | undefined;
      box.first = await Promise.race([
        pending,
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), CALL_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      // Cancels until the call has answered (a 500): a cancel between two statements misses the next one.
      let done = false;
      void pending.finally(() => (done = true));
      while (box.first === 'timeout' && !done) {
        await cancelRunning();
        await Promise.race([pending, new Promise((resolve) => setTimeout(resolve, 500))]);
      }
    });
    const firstMs = performance.now() - t0;
    const first = box.first;
    if (first === 'timeout' || first === undefined) {
      console.log(`${call.name}: > ${CALL_TIMEOUT_MS} ms, cancelled`);
      rows.push({
        name: call.name,
        runs: 0,
        p50: Infinity,
        p95: Infinity,
        cpu: NaN,
        kb: NaN,
        timedOut: true,
        statements,
      });
      continue;
    }
    let last = first;
    if (last.statusCode !== 200) throw new Error(`GET ${call.url} answered ${last.statusCode}: ${last.body}`);
    // Calls far past the target get fewer runs, so the bench ends on a loaded machine.
    const runs = firstMs > 20 * TARGET_MS ? Math.min(RUNS, 5) : RUNS;
    for (let i = 0; i < (runs === RUNS ? 3 : 0); i++) await inject();
    const times: number[] = [];
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      last = await inject();
      times.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpu0);
    times.sort((a, b) => a - b);
    const row: Row = {
      name: call.name,
      runs,
      p50: pct(times, 50),
      p95: pct(times, 95),
      cpu: (cpu.user + cpu.system) / 1000 / runs,
      kb: last.rawPayload.length / 1024,
      timedOut: false,
      statements,
    };
    rows.push(row);
    console.log(`${call.name}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms (${runs} runs)`);
  }

  const plans = async (r: Row) => {
    const head = `\n### ${r.name}\nGET ${calls.find((c) => c.name === r.name)!.url}`;
    if (!r.timedOut) return [head, ...(await explainAll(db, r.statements))];
    // Past the timeout EXPLAIN ANALYZE would not end either: the plans without running them.
    const out = [`${head}\n(timed out: EXPLAIN without ANALYZE)`];
    for (const s of r.statements) {
      if (!/^\s*(select|with)/i.test(s.sql)) continue;
      const plan = await db.query<{ 'QUERY PLAN': string }>(`explain ${s.sql}`, s.params);
      out.push(
        `-- ${s.sql.replace(/\s+/g, ' ').trim().slice(0, 300)}\n${plan.rows.map((p) => p['QUERY PLAN']).join('\n')}`,
      );
    }
    return out;
  };
  const measured = rows.filter((r) => !r.timedOut);
  const slowest = measured.length ? measured.reduce((a, b) => (b.p95 > a.p95 ? b : a)) : undefined;
  // The admin's first tree page and the MID searches always (the lazy tree and the trigram indexes of issue 15).
  const always = (r: Row) =>
    r.name.startsWith('tree, first page (admin') || r.name.startsWith('MIDs grid, search');
  const shown =
    env.BENCH_PLANS === 'all' ? rows : rows.filter((r) => r.timedOut || r === slowest || always(r));
  console.log(
    `\nQuery plans (EXPLAIN ANALYZE, BUFFERS) of ${env.BENCH_PLANS === 'all' ? 'every call' : "the admin's first tree page, the MID searches, the slowest measured call and the timed-out ones (BENCH_PLANS=all: every call)"}:`,
  );
  for (const r of shown) console.log((await plans(r)).join('\n'));
  await app.close();
  await db.close();

  console.log(
    `\nTimings over ${RUNS} runs (5 for a call whose first run took over ${20 * TARGET_MS} ms) through the Fastify app ` +
      `(inject); CPU = bench process per request; calls past ${CALL_TIMEOUT_MS} ms cancelled:`,
  );
  console.log(
    `${'call'.padEnd(56)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'cpu ms'.padStart(7)} ${'kB'.padStart(8)} ${'target'.padStart(7)}`,
  );
  const ms = (r: Row, v: number) => (r.timedOut ? `>${CALL_TIMEOUT_MS}` : v.toFixed(1));
  for (const r of rows) {
    console.log(
      `${r.name.slice(0, 56).padEnd(56)} ${ms(r, r.p50).padStart(8)} ${ms(r, r.p95).padStart(8)} ` +
        `${(r.timedOut ? '-' : r.cpu.toFixed(1)).padStart(7)} ${(r.timedOut ? '-' : r.kb.toFixed(1)).padStart(8)} ` +
        `${`<${TARGET_MS}`.padStart(7)}  ${r.p95 <= TARGET_MS ? 'ok' : r.timedOut ? 'TIMED OUT' : 'SLOW'}` +
        (r.runs && r.runs < RUNS ? ` (${r.runs} runs)` : ''),
    );
  }
});
