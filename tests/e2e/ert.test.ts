/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { signInToShell, useWebWorld } from '../support/e2e-web';

/** Issue 17: an administrator adds an ERT from the ERT page and resolves it. */
const world = useWebWorld();

describe('ERT records', () => {
  it('adds an ERT and resolves it', async () => {
    const caseId = (
      await world.t.db.query<{ id: string }>(
        `select id from cases.cases where tenant_id = 'acme' order by id limit 1`,
      )
    ).rows[0]!.id;
    const content = `E2E ERT ${Date.now().toString(36)}`;
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/ert');
      await page.getByTestId('ert-records').waitFor();
      await page.getByRole('button', { name: 'Add ERT' }).click();
      const dialog = page.getByTestId('add-ert-dialog');
      const add = dialog.getByRole('button', { name: 'Add' });
      expect(await add.isDisabled()).toBe(true);
      await dialog.locator('input[name="case-id"]').fill(String(caseId));
      await dialog.locator('textarea[name="content"]').fill(content);
      await add.click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByLabel('Search ERTs').fill(content);
      await page.getByLabel('Search ERTs').press('Enter');
      const grid = page.getByTestId('ert-grid');
      await expect.poll(() => grid.textContent(), { timeout: 15_000 }).toContain(content);
      await grid.getByRole('button', { name: 'Resolve' }).first().click();
      await page.getByText('ERT successfully resolved.').first().waitFor();
      const row = await world.t.db.query<{ resolved_by: string }>(
        'select resolved_by from cases.erts where content = $1',
        [content],
      );
      expect(row.rows[0]!.resolved_by).toBe('admin');
      // The refreshed grid shows the status and no Resolve button for the row any more.
      await expect
        .poll(() => grid.getByRole('button', { name: 'Resolve' }).count(), { timeout: 15_000 })
        .toBe(0);
      await screenshot(page, 'h17-ert');
    } finally {
      await context.close();
    }
  }, 120_000);
});
