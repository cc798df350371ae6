/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { DEMO_USERS, demoTenant, demoUserId } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { apiAs, signInToShell, useWebWorld } from '../support/e2e-web';

/** Issue 19: a change made through the portal shows in the audit screen, and the filters narrow it. */
const world = useWebWorld();

const demoId = (username: string) =>
  demoUserId(
    demoTenant('acme'),
    DEMO_USERS.find((u) => u.username === username)!,
  );

describe('audit log screen', () => {
  it('shows a change with its route and target, filters it, and exports CSV', async () => {
    const target = demoId('merchant.user');
    const call = await apiAs(world, 'acme', 'merchant.admin');
    await call(`/users/users/${target}`, { method: 'PATCH', body: { lname: `Audit${Date.now() % 1000}` } });
    // The gateway sends its buffer every second: wait until the row is stored.
    await expect
      .poll(
        async () =>
          (
            await world.t.db.query(
              `select 1 from users.audit_log where route = '/api/users/users/:id' and target_ids->>'id' = $1`,
              [String(target)],
            )
          ).rows.length,
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);

    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/audit');
      await page.getByTestId('audit-log').waitFor();
      const grid = page.getByTestId('audit-grid');
      await expect.poll(() => grid.textContent(), { timeout: 15_000 }).toContain('/api/users/users/:id');
      expect(await grid.textContent()).toContain(`id=${target}`);
      await screenshot(page, 'h19-audit');

      // Target filter: only rows naming that user.
      await page.getByLabel('Target').fill(String(target));
      await page.getByLabel('Target').press('Enter');
      await expect.poll(() => grid.textContent(), { timeout: 15_000 }).toContain(`id=${target}`);
      // The gateway's row (route pattern) and the user service's own row (user.update) of the change.
      // Polled: right after Enter the grid may still show its loading row.
      const routes = () => grid.locator('[role="gridcell"][col-id="route"]').allTextContents();
      await expect.poll(routes, { timeout: 15_000 }).toContain('/api/users/users/:id');
      expect(await routes()).toContain(`/users/users/${target}`);
      expect(await grid.textContent()).toContain('user.update');

      // Delete filter: nothing deleted that user.
      await page.getByLabel('Action').selectOption('DELETE');
      await expect.poll(() => grid.textContent(), { timeout: 15_000 }).toContain('No Records Found!');
      await page.getByLabel('Action').selectOption('PATCH');
      await expect.poll(() => grid.textContent(), { timeout: 15_000 }).toContain(`id=${target}`);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('audit-csv').click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
      const path = await download.path();
      const { readFileSync } = await import('node:fs');
      const csv = readFileSync(path, 'utf8');
      expect(csv.split('\r\n')[0]).toContain('Time,Actor,User');
      expect(csv).toContain('/api/users/users/:id');
      expect(csv).not.toContain(',DELETE,');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('is not offered to a user who does not administer users', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.user', undefined, '/audit');
      await page.waitForURL(/\/not-found/, { timeout: 15_000 });
      expect(await page.getByTestId('audit-log').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
