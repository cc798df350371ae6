/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@portal/core';
import { JobWorker, livePublisher } from '@portal/jobs';
import { UPDATER_JOBS } from '../../services/case/src/case-updater/updater-job';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/**
 * Issue 21: a case updater job's progress reaches the screen by server push
 * (GET /api/live), with no polling of the uploads list while the stream is
 * open; with the stream refused, the list polls again (the fallback).
 * The stack runs without a worker: the test starts one when it wants the job to run.
 */
let world: WebWorld;
let worker: JobWorker | undefined;
const log = createLogger({ LOG_LEVEL: 'error', NODE_ENV: 'test' }, 'live-e2e');
const LIST = '/api/cm/cases/updater';

beforeAll(async () => {
  world = await startWebWorld();
}, 180_000);
afterAll(async () => {
  await worker?.stop(1);
  await world?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Times (ms) of the page's GETs of the uploads list. */
function listRequests(page: Page): number[] {
  const times: number[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === LIST) times.push(Date.now());
  });
  return times;
}

async function upload(page: Page, caseId: string, verdict: string) {
  await page.getByRole('button', { name: 'Upload CSV' }).click();
  const dialog = page.getByTestId('updater-upload-dialog');
  await dialog.getByTestId('csv-file-input').setInputFiles({
    name: 'cases.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`ID,Verdict\n${caseId},${verdict}\n`),
  });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await page.getByText('CSV successfully uploaded.').first().waitFor();
}

const liveState = (page: Page) => page.evaluate(() => document.documentElement.dataset.live);

describe('live updates', () => {
  it('shows a job finishing without polling while the stream is open', async () => {
    const c = (
      await world.t.db.query<{ id: string; verdict_id: number }>(
        `select id, verdict_id from cases.cases where tenant_id = 'acme' order by id limit 1`,
      )
    ).rows[0]!;
    const { context, page } = await world.newPage();
    try {
      const requests = listRequests(page);
      await signInToShell(page, world, 'acme', 'manager', undefined, '/case-updater');
      const table = page.getByTestId('updater-uploads');
      await table.waitFor();
      await expect.poll(() => liveState(page), { timeout: 10_000 }).toBe('open');

      await upload(page, c.id, c.verdict_id === 4 ? 'Loss' : 'Win');
      await expect.poll(() => table.textContent(), { timeout: 10_000 }).toContain('Queued');
      // The job waits in its queue (no worker yet): the list used to be polled every 1.5 s now.
      await sleep(1000);
      const before = requests.length;
      await sleep(6000);
      expect(requests.length, 'list requests while a job was queued and the stream open').toBe(before);

      worker = new JobWorker({
        db: world.t.db,
        env: world.t.env,
        log,
        jobs: UPDATER_JOBS,
        live: livePublisher(world.t.deps.cache, log),
        pollingIntervalSeconds: 0.5,
      });
      await worker.start();
      const started = requests.length;
      await expect
        .poll(() => table.textContent(), { timeout: 30_000 })
        .toMatch(/Complete.*1 of 1 row\(s\) updated\./);
      // Refetched on the job's messages (running, progress, done; coalesced), never on a timer.
      const pushed = requests.length - started;
      expect(pushed).toBeGreaterThanOrEqual(1);
      expect(pushed).toBeLessThanOrEqual(4);
      await sleep(3000);
      expect(requests.length - started, 'no list requests after the job ended').toBe(pushed);
      expect(await liveState(page)).toBe('open');
      await screenshot(page, 'i21-live-updates');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('polls again while the stream is refused (fallback)', async () => {
    await worker?.stop(1);
    worker = undefined;
    const c = (
      await world.t.db.query<{ id: string }>(
        `select id from cases.cases where tenant_id = 'acme' order by id offset 1 limit 1`,
      )
    ).rows[0]!;
    const { context, page } = await world.newPage();
    try {
      await page.route('**/api/live', (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' }),
      );
      const requests = listRequests(page);
      await signInToShell(page, world, 'acme', 'manager', undefined, '/case-updater');
      await page.getByTestId('updater-uploads').waitFor();
      await expect.poll(() => liveState(page), { timeout: 10_000 }).toBe('down');
      await upload(page, c.id, 'Win');
      await sleep(1000);
      const before = requests.length;
      await sleep(5000);
      expect(requests.length - before, 'the queued upload is polled every 1.5 s').toBeGreaterThanOrEqual(2);
    } finally {
      await context.close();
    }
  }, 120_000);
});
