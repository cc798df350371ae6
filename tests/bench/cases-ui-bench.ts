/// <reference lib="dom" />
/**
 * Case lists in Chromium on 1,000,000 cases (issue 7): the full stack against
 * a copy of the case bench's database (tests/bench/case-bench.ts makes
 * portal_bench_case_500000: 500,000 cases per demo tenant), timing what a
 * manager sees: first page, sort, tab filter, search and the deepest page.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
 *     node scripts/build.mjs && npm run bench -- cases-ui
 *
 * BENCH_UI_RESET=1 drops and recopies the UI database (kept between runs).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { connectPostgres, createLogger, loadEnv, PROCESS_NAMES, RedisCache } from '@portal/core';
import { migrateAll, SERVICES, startStack } from '@portal/runner';
import { launchBrowser, tenantUrl } from '../support/browser';
import { signInToShell, tenantConfigCopy, type WebWorld } from '../support/e2e-web';

const env = process.env;
const SERVER = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SOURCE = 'portal_bench_case_500000';
const TARGET = 'portal_bench_cases_ui';
const RUNS = Number(env.BENCH_RUNS ?? 5);

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function admin(sql: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: SERVER });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

/** A copy of the 1M-case database with the other services' schemas and demo users added. */
async function prepare(): Promise<string> {
  const has = async (n: string) =>
    (await admin(`select 1 from pg_database where datname = $1`, [n])).rowCount === 1;
  if (!(await has(SOURCE))) throw new Error(`${SOURCE} is missing: run npm run bench -- case first`);
  if (env.BENCH_UI_RESET === '1' && (await has(TARGET))) await admin(`drop database ${TARGET} with (force)`);
  const url = withDb(SERVER, TARGET);
  if (await has(TARGET)) return url;
  const t0 = performance.now();
  await admin(`create database ${TARGET} template ${SOURCE}`);
  const db = await connectPostgres(url, 4);
  await migrateAll(db);
  // The cases are there; the user, docs and builder demo data are small.
  for (const name of ['user', 'docs', 'builder'] as const)
    await SERVICES[name].seed(db, { casesPerTenant: 500_000 });
  await db.query('vacuum analyze');
  await db.close();
  console.log(`prepared ${TARGET} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return url;
}

/**
 * Time from an action until the grid's page call has answered and the next
 * frame is painted; a call slower than LIMIT_MS counts as LIMIT_MS (and says so).
 */
const LIMIT_MS = 30_000;
async function timed(page: Page, label: string, action: () => Promise<unknown>): Promise<number> {
  const answered = page.waitForResponse(
    (r) => /\/api\/cm\/cases\?/.test(r.url()) && !r.url().includes('limit=0'),
    { timeout: LIMIT_MS },
  );
  const t0 = performance.now();
  await action();
  try {
    const r = await answered;
    if (!r.ok()) console.log(`${label}: HTTP ${r.status()}`);
    await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done())));
    return performance.now() - t0;
  } catch {
    console.log(`${label}: no answer within ${LIMIT_MS} ms`);
    return LIMIT_MS;
  }
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]!.toFixed(0)} ms, max ${s.at(-1)!.toFixed(0)} ms (n=${s.length})`;
};

it('case lists on 1,000,000 cases in Chromium', async () => {
  const databaseUrl = await prepare();
  const configDir = tenantConfigCopy((_t, yaml) =>
    yaml
      .replace(/auth_ip_per_minute: \d+/, 'auth_ip_per_minute: 2000')
      .replace(/auth_username_per_minute: \d+/, 'auth_username_per_minute: 500'),
  );
  const prefix = `bench:ui:${randomBytes(4).toString('hex')}:`;
  const e = loadEnv(PROCESS_NAMES, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: `.data/bench-ui`,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: REDIS,
    REDIS_KEY_PREFIX: prefix,
    INTERNAL_CONTEXT_SECRET: randomBytes(32).toString('base64url'),
    TENANT_CONFIG_DIR: configDir,
  });
  const log = createLogger(e, 'bench');
  const db = await connectPostgres(databaseUrl, e.DATABASE_POOL_SIZE, log);
  const cache = new RedisCache({ url: REDIS, keyPrefix: prefix, log });
  const stack = await startStack(
    { env: e, db, cache, log, contextSecret: e.INTERNAL_CONTEXT_SECRET! },
    { gatewayPort: 0, gatewayHost: '127.0.0.1', metricsPort: null },
  );
  const browser = await launchBrowser();
  try {
    const world = {
      url: (t: 'acme' | 'northbank', p = '/') => tenantUrl(stack.gatewayUrl, t, p),
    } as WebWorld;
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    page.setDefaultTimeout(60_000);
    await signInToShell(page, world, 'acme', 'manager', undefined, '/dashboard');
    const times: Record<string, number[]> = {
      'first page (in-app navigation)': [],
      'sort by CB ID': [],
      'tab filter (New)': [],
      'search (case number prefix)': [],
      'deepest page': [],
    };
    for (let run = 0; run < RUNS; run++) {
      const go = (path: string) =>
        page.evaluate((p) => {
          window.history.pushState({}, '', p);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
      // A full load per run empties the app's query cache: every timed step below asks the server.
      await page.goto(world.url('acme', '/dashboard'));
      await page.getByTestId('top-bar').waitFor();
      times['first page (in-app navigation)']!.push(
        await timed(page, 'first page', () => go('/case-management')),
      );
      const total = (await page.getByTestId('case-total').textContent()) ?? '';
      if (run === 0) console.log(`case-management total: ${total}`);
      const header = page.locator('.ag-header-cell[col-id="id"] .ag-header-cell-label');
      times['sort by CB ID']!.push(await timed(page, 'sort', () => header.click()));
      times['tab filter (New)']!.push(
        await timed(page, 'tab', () => page.getByTestId('tab-new_cases').click()),
      );
      times['deepest page']!.push(
        await timed(page, 'deepest page', () =>
          page
            .getByRole('button', { name: /last page/i })
            .first()
            .click(),
        ),
      );
      times['search (case number prefix)']!.push(
        await timed(page, 'search', () => page.getByLabel('Search cases').fill(run % 2 ? '2510' : '2506')),
      );
    }
    console.log(`\nCase lists on 1,000,000 cases (acme: 500,000), manager, Chromium, ${RUNS} runs:`);
    for (const [k, v] of Object.entries(times)) console.log(`  ${k.padEnd(34)} ${stats(v)}`);
  } finally {
    await browser.close();
    await stack.close();
    await cache.close();
    await db.close();
  }
});
