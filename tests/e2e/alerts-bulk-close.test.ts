/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { BULK_MESSAGES } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { signInToShell, useWebWorld } from '../support/e2e-web';

/** Bulk close (spec 2 §2.9, §4) in the browser, with the job worker running the confirmed job. */
const world = useWebWorld({}, undefined, { worker: { pollingIntervalSeconds: 0.5 } });

describe('bulk close', () => {
  it('a manager submits criteria, sees the count, accepts, and the job closes exactly those cases', async () => {
    const { rows } = await world.t.db.query<{
      currency_id: number;
      cycle_id: number;
      reason_code_id: number;
      n: number;
    }>(
      `select dispute_currency_id as currency_id, cycle_id, reason_code_id, count(*)::int as n from cases.cases
       where tenant_id = 'acme' and status_id = 1 group by 1, 2, 3 order by n desc, 1, 2, 3 limit 1`,
    );
    const crit = rows[0]!;
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'manager', undefined, '/chargebacks');
      await page.getByTestId('bulk-close-open').click();
      const panel = page.getByTestId('bulk-panel-auto_accept');
      await panel.waitFor();
      expect(await panel.getByTestId('bulk-run-action').isDisabled()).toBe(true);
      // The demo's history: the seeded jobs of the merchants in scope, newest described on top.
      const pastJobs = panel.getByTestId('bulk-past-jobs').locator('li');
      await expect.poll(() => pastJobs.count()).toBeGreaterThanOrEqual(3);
      expect(await panel.getByTestId('bulk-job-description').textContent()).toMatch(/records updated\.$/);
      await panel.getByTestId('criterion-amt-from').fill('10');
      await panel.getByTestId('criterion-amt-to').fill('5');
      await panel.getByText(BULK_MESSAGES.maxBelowMin).waitFor();
      await panel.getByTestId('criterion-amt-from').fill('0');
      await panel.getByTestId('criterion-amt-to').fill('100000');
      for (const [key, value] of [
        ['currency_id', crit.currency_id],
        ['cycle_id', crit.cycle_id],
        ['reason_code_id', crit.reason_code_id],
      ] as const) {
        const select = panel.getByTestId(`criterion-${key}`);
        await expect.poll(() => select.locator('option').count()).toBeGreaterThan(1);
        await select.selectOption(String(value));
      }
      await expect.poll(() => panel.getByTestId('applied-criteria').locator('> *').count()).toBe(4);
      expect(await panel.getByTestId('applied-criteria').textContent()).toContain('Amount: 0.00 - 100000.00');
      await screenshot(page, 'bulk-close-panel');
      await panel.getByTestId('bulk-run-action').click();
      const confirm = page.getByTestId('confirm-action-dialog');
      await confirm.waitFor();
      expect(await confirm.getByTestId('confirm-action-count').textContent()).toBe(
        BULK_MESSAGES.affects(crit.n),
      );
      await screenshot(page, 'bulk-close-confirm');
      await confirm.getByTestId('confirm-action-accept').click();
      await panel.getByText(BULK_MESSAGES.submitted).waitFor();
      await page.getByText(BULK_MESSAGES.success).first().waitFor();

      // The worker runs it: the job ends with as many records as the preview counted.
      await expect
        .poll(
          async () =>
            (
              await world.t.db.query<{ state: string; records_num: number }>(
                `select state, records_num from cases.bulk_jobs where kind = 'auto_accept' order by id desc limit 1`,
              )
            ).rows[0],
          { timeout: 30_000 },
        )
        .toEqual({ state: 'done', records_num: crit.n });
      const left = await world.t.db.query<{ n: number }>(
        `select count(*)::int as n from cases.cases where tenant_id = 'acme' and status_id = 1
         and dispute_currency_id = $1 and cycle_id = $2 and reason_code_id = $3`,
        [crit.currency_id, crit.cycle_id, crit.reason_code_id],
      );
      expect(left.rows[0]!.n).toBe(0);
      await page.getByRole('button', { name: 'Close', exact: true }).first().click();
      await page.getByTestId('bulk-close-open').click();
      await expect
        .poll(() => page.getByTestId('bulk-job-description').textContent())
        .toContain(BULK_MESSAGES.updated(crit.n));
      expect(await pastJobs.first().textContent()).toContain(`manager · Amount 0.00 - 100000.00`);
      await screenshot(page, 'bulk-close-done');
    } finally {
      await context.close();
    }
  });

  it('is disabled for read-only users', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'readonly', undefined, '/case-management');
      await page.getByTestId('bulk-close-open').waitFor();
      expect(await page.getByTestId('bulk-close-open').isDisabled()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
