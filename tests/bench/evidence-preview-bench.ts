/**
 * Evidence preview bench (issue 34): the 10 MB, 50-page set of the upload
 * bench (four PDFs of 12 pages padded to ~2.4 MB each, two JPEGs) stored
 * through upload forms, then 'Preview packet': POST
 * /api/docs/representment/preview (every stored file checked, the packet
 * compiled by the compile job's function, the checks read from every page
 * with pdf.js, the PDF stored) until the answer is in ("preview ready"), and
 * the first thumbnail: the preview's PDF fetched and its first page drawn at
 * thumbnail size with pdf.js, as the viewer does. Prints the figures; no
 * timed assertions (design §8). Target of the issue: ready <= 3 s, first
 * thumbnail <= 1 s.
 *
 *   npm run bench -- evidence-preview          (BENCH_RUNS, default 3)
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import { it } from 'vitest';
import { DEMO_PASSWORD, type PacketPreview, type PreviewBody } from '@portal/contracts';
import { connectPostgres, createLogger, loadEnv, PROCESS_NAMES, RedisCache } from '@portal/core';
import { migrateAll, seedAll, startStack } from '@portal/runner';
import { openPdf, renderPage } from '../../services/docs/src/preview/pdfjs-node';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { callGateway } from '../support/gateway-client';
import { makePdf, uploadFile } from '../support/representment-upload';

const env = process.env;
const SERVER = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUNS = Number(env.BENCH_RUNS ?? 3);
const DB_NAME = 'portal_bench_evidence_preview';

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

/** A GET through the gateway with the bearer token; the body's bytes. */
function getBytes(gatewayUrl: string, path: string, token: string): Promise<Buffer> {
  const base = new URL(gatewayUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        path,
        headers: { host: 'acme.localhost', authorization: `Bearer ${token}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`GET ${path}: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

it('previews a 10 MB, 50-page packet and draws its first thumbnail', async () => {
  await admin(`drop database if exists ${DB_NAME} with (force)`);
  await admin(`create database ${DB_NAME}`);
  const databaseUrl = withDb(SERVER, DB_NAME);
  const e = loadEnv(PROCESS_NAMES, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: `.data/bench-evidence-preview`,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: REDIS,
    REDIS_KEY_PREFIX: `bench:preview:${randomBytes(4).toString('hex')}:`,
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
    const pdfs = await Promise.all([0, 1, 2, 3].map(() => makePdf(12, { padTo: 2_480_000 })));
    const jpgs = [flatJpeg(1700, 2200), flatJpeg(1200, 1600, 220)];
    const total = [...pdfs, ...jpgs].reduce((n, b) => n + b.length, 0);
    console.log(`set: 4 PDFs + 2 JPEGs, 50 pages, ${total.toLocaleString('en-US')} bytes (${mb(total)})`);

    for (const [run, { id }] of rows.entries()) {
      const caseId = Number(id);
      const files: PreviewBody['files'] = [];
      for (const [i, b] of [...pdfs, ...jpgs].entries()) {
        const type = i < pdfs.length ? 'application/pdf' : 'image/jpeg';
        const name = `doc-${i}.${type === 'image/jpeg' ? 'jpg' : 'pdf'}`;
        const key = await uploadFile(stack.gatewayUrl, 'acme', token, caseId, b, name, type);
        files.push({ s3_key: key, filename: name, content_type: type, size: b.length, order_num: i });
      }
      const t0 = performance.now();
      const { value: answer, peak } = await peakRss(() =>
        callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/docs/representment/preview', {
          token,
          body: { case_id: caseId, files, templates: [] },
        }),
      );
      if (answer.status !== 200) throw new Error(`preview refused: ${JSON.stringify(answer.json)}`);
      const preview = answer.json as unknown as PacketPreview;
      const t1 = performance.now();
      const bytes = await getBytes(stack.gatewayUrl, preview.pdf_path, token);
      const t2 = performance.now();
      const pdf = await openPdf(bytes);
      const first = await pdf.getPage(1);
      await renderPage(pdf, 0, 104 / first.getViewport({ scale: 1 }).width);
      const t3 = performance.now();
      for (let i = 1; i < pdf.numPages; i++) {
        const page = await pdf.getPage(i + 1);
        await renderPage(pdf, i, 104 / page.getViewport({ scale: 1 }).width);
      }
      const t4 = performance.now();
      await pdf.destroy();
      console.log(
        `run ${run + 1}: preview ready ${ms(t1 - t0)} (${preview.pages} pages, ${mb(preview.size)}, ` +
          `${preview.checks.length} finding(s)); first thumbnail ${ms(t3 - t1)} ` +
          `(PDF fetched in ${ms(t2 - t1)}, page 1 drawn in ${ms(t3 - t2)}); all ${preview.pages} thumbnails ${ms(t4 - t1)}; ` +
          `peak rss during preview ${mb(peak)}`,
      );
    }
  } finally {
    await stack.close();
    await cache.close();
    await db.close();
  }
});
