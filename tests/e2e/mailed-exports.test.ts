/// <reference lib="dom" />
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_MESSAGES } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/**
 * Mailed exports in the browser: with EXPORT_MAIL_THRESHOLD_ROWS = 5, Export
 * All on the users grid and on the chargebacks list answers 202, the screen
 * shows the spec's 'Export started' notice (the users one hides after 5 s),
 * and the worker mails a /download?loc= link that the download page opens.
 */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });
let world: WebWorld;

beforeAll(async () => {
  world = await startWebWorld({ EXPORT_MAIL_THRESHOLD_ROWS: '5' }, undefined, {
    worker: { pollingIntervalSeconds: 0.5 },
  });
}, 180_000);
afterAll(async () => {
  await world?.close();
});

function exportMail(to: string): { text: string } | undefined {
  const dir = join(world.t.env.DATA_DIR, 'outbox');
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { to: string; subject: string; text: string },
    )
    .find((m) => m.to === to && m.subject === EXPORT_MESSAGES.mailSubject);
}

describe('mailed exports', () => {
  it('users grid: Export All shows the notice for 5 s and the mailed link opens the download page', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/users');
      await page.getByTestId('export-all').click();
      // The notice shows for 5 s: wait for it holding the text (not a wait, then a read after it closed).
      const notice = page.getByTestId('export-notice').filter({ hasText: EXPORT_MESSAGES.started });
      await notice.waitFor();
      await screenshot(page, 'users-export-mailed');
      await notice.waitFor({ state: 'detached', timeout: 10_000 });

      await poll(() => exportMail('admin@example.com') !== undefined).toBe(true);
      const text = exportMail('admin@example.com')!.text;
      const loc = /\/download\?loc=(\S+)/.exec(text)![1]!;
      expect(loc).toMatch(/^acme\/exports\/[0-9a-f-]{36}\/users-[\d-]+\.csv$/);
      const download = page.waitForEvent('download', { timeout: 20_000 });
      await page.goto(world.url('acme', `/download?loc=${loc}`)).catch(() => undefined);
      expect((await download).suggestedFilename()).toMatch(/^users-[\d-]+\.csv$/);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('chargebacks list: Export All shows the e-mailed notice', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/chargebacks');
      await page.getByTestId('tools-menu').click();
      await page.getByRole('menuitem', { name: 'Export All', exact: true }).click();
      // The notice shows for 5 s: wait for it holding the text (not a wait, then a read after it closed).
      await page.getByTestId('export-notice').filter({ hasText: EXPORT_MESSAGES.started }).waitFor();
      await screenshot(page, 'cases-export-mailed');
      await poll(() => exportMail('merchant.admin@bluesky.example') !== undefined).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);
});
