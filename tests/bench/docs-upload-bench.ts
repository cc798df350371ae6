/**
 * Representment upload bench (issue 12): a 10 MB, 50-page set (four PDFs of
 * 12 pages padded to ~2.4 MB each, two JPEGs) uploaded through the gateway
 * (upload link + form post per file, filesystem object store), checked by the
 * docs service (POST /api/docs/representment reads every stored byte, loads
 * every PDF) and compiled by the in-process worker into one 50-page PDF.
 * Prints the time of each phase and the process's peak RSS (gateway, services
 * and worker all run in this process).
 *
 *   npm run bench -- docs-upload          (BENCH_RUNS, default 3)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { it } from 'vitest';
import { DEMO_PASSWORD } from '@portal/contracts';
import { connectPostgres, createLogger, loadEnv, PROCESS_NAMES, RedisCache } from '@portal/core';
import { migrateAll, seedAll, startStack } from '@portal/runner';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { callGateway } from '../support/gateway-client';
import { makePdf, uploadFile } from '../support/representment-upload';

const env = process.env;
const SERVER = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUNS = Number(env.BENCH_RUNS ?? 3);
const DB_NAME = 'portal_bench_docs_upload';

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
async function admin(sql: string) {
  const c = new pg.Client({ connectionString: SERVER });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Peak RSS sampled every 10 ms while `fn` runs. */
async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peak };
  } finally {
    clearInterval(timer);
  }
}
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
const ms = (t: number) => `${t.toFixed(0)} ms`;

it('uploads, checks and compiles a 10 MB, 50-page representment', async () => {
  await admin(`drop database if exists ${DB_NAME} with (force)`);
  await admin(`create database ${DB_NAME}`);
  const databaseUrl = withDb(SERVER, DB_NAME);
  const e = loadEnv(PROCESS_NAMES, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: `.data/bench-docs-upload`,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: REDIS,
    REDIS_KEY_PREFIX: `bench:docs:${randomBytes(4).toString('hex')}:`,
    INTERNAL_CONTEXT_SECRET: randomBytes(32).toString('base64url'),
  });
  const log = createLogger(e, 'bench');
  const db = await connectPostgres(databaseUrl, 10, log);
  await migrateAll(db);
  await seedAll(db, '300');
  const cache = new RedisCache({ url: REDIS, keyPrefix: e.REDIS_KEY_PREFIX, log });
  await cache.ready(5000);
  const stack = await startStack(
    { env: e, db, cache, log, contextSecret: e.INTERNAL_CONTEXT_SECRET! },
    { gatewayPort: 0, gatewayHost: '127.0.0.1', worker: { pollingIntervalSeconds: 0.5 } },
  );
  try {
    const signin = await callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/auth/signin', {
      body: { username: 'manager', password: DEMO_PASSWORD },
    });
    const token = signin.json.access_token as string;
    const { rows } = await db.query<{ id: number }>(
      `select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit $1`,
      [RUNS],
    );
    // The set: 4 PDFs x 12 pages (~2.4 MB each, incompressible padding) + 2 JPEGs = 50 pages, just under 10 MB.
    const pdfs = await Promise.all([0, 1, 2, 3].map(() => makePdf(12, { padTo: 2_480_000 })));
    const jpgs = [flatJpeg(1700, 2200), flatJpeg(1200, 1600, 220)];
    const total = [...pdfs, ...jpgs].reduce((n, b) => n + b.length, 0);
    console.log(
      `set: ${pdfs.length} PDFs + ${jpgs.length} JPEGs, 50 pages, ${total.toLocaleString('en-US')} bytes (${mb(total)})`,
    );
    console.log(`rss before: ${mb(process.memoryUsage().rss)}`);

    for (const [run, { id }] of rows.entries()) {
      const caseId = Number(id);
      const t0 = performance.now();
      const { value: files, peak: peakUpload } = await peakRss(async () => {
        const out = [];
        for (const [i, b] of [...pdfs, ...jpgs].entries()) {
          const type = i < pdfs.length ? 'application/pdf' : 'image/jpeg';
          const name = `doc-${i}.${type === 'image/jpeg' ? 'jpg' : 'pdf'}`;
          const key = await uploadFile(stack.gatewayUrl, 'acme', token, caseId, b, name, type);
          out.push({ s3_key: key, filename: name, content_type: type, size: b.length, order_num: i });
        }
        return out;
      });
      const t1 = performance.now();
      const { value: answer, peak: peakCheck } = await peakRss(() =>
        callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/docs/representment', {
          token,
          body: {
            case_id: caseId,
            origin: 2,
            files,
            templates: [],
            qc_review: true,
            is_reupload: false,
            comment: 'bench',
          },
        }),
      );
      if (answer.status !== 200) throw new Error(`upload refused: ${JSON.stringify(answer.json)}`);
      const t2 = performance.now();
      const { peak: peakCompile } = await peakRss(async () => {
        for (;;) {
          const s = await db.query<{ state: string }>(
            `select state from docs.representment_versions where case_id = $1 order by version desc limit 1`,
            [caseId],
          );
          if (s.rows[0]?.state === 'compiled') return;
          if (s.rows[0]?.state === 'failed') throw new Error('compile failed');
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      const t3 = performance.now();
      const v = await db.query<{ compiled_pages: number; compiled_size: number }>(
        `select compiled_pages, compiled_size from docs.representment_versions where case_id = $1`,
        [caseId],
      );
      console.log(
        `run ${run + 1}: upload ${ms(t1 - t0)} (6 links + forms), check+accept ${ms(t2 - t1)}, ` +
          `compile ${ms(t3 - t2)} (queue wait included; poll 0.5 s) -> ${v.rows[0]!.compiled_pages} pages, ` +
          `${mb(Number(v.rows[0]!.compiled_size))}; total ${ms(t3 - t0)}; ` +
          `peak rss upload ${mb(peakUpload)}, check ${mb(peakCheck)}, compile ${mb(peakCompile)}`,
      );
    }
    console.log(`process max rss (getrusage): ${mb(process.resourceUsage().maxRSS * 1024)}`);
  } finally {
    await stack.close();
    await cache.close();
    await db.close();
  }
});
