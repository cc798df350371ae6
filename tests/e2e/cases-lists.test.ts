import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { caseGrid, firstCell, openCaseList, resultText, waitRows } from '../support/e2e-case-grid';
import {
  apiAs,
  networkQuiet,
  openRowMenuItem,
  signedInPage,
  signInToShell,
  useWebWorld,
} from '../support/e2e-web';

/** The case lists against the full stack: manager, agent, partner and merchant users working their cases. */
const world = useWebWorld();

interface ListAnswer {
  data: { id: number; case_no: string; status_id: number; flag: { is_flagged: boolean } | null }[];
  pagination: { total: number };
}

/** Opens a row's Actions menu and picks an item; retries when a grid reload redraws the row under the menu. */
async function rowAction(page: Page, id: number, item: string) {
  await networkQuiet(page);
  await openRowMenuItem(page, `Actions for case ${id}`, item);
}

describe('case lists', () => {
  it('manager: chargebacks list pages, sorts, searches and flags like the API', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await openCaseList(world, 'acme', 'manager', '/chargebacks', 'chargebacks');
    const all = await api<ListAnswer>('/cm/cases?intent=chargebacks&limit=50');
    // The total is shown a render after the first rows.
    await expect
      .poll(() => page.getByTestId('case-total').textContent())
      .toContain(all.pagination.total.toLocaleString('en-US'));
    expect(await firstCell(page, 'id').textContent()).toBe(String(all.data[0]!.id));
    // Merchant column for staff, Actions and Document present.
    await expect(page.locator('.ag-header-cell[col-id="merchant_name"]').count()).resolves.toBe(1);
    await screenshot(page, 'cases-chargebacks-manager');

    // Sort by CB ID ascending through the header.
    await page.locator('.ag-header-cell[col-id="id"] .ag-header-cell-label').click();
    const asc = await api<ListAnswer>('/cm/cases?intent=chargebacks&limit=50&sort_by=id&sort_order=asc');
    await expect.poll(() => firstCell(page, 'id').textContent()).toBe(String(asc.data[0]!.id));

    // Search (debounced) by case number.
    const target = all.data[3]!;
    await page.getByLabel('Search cases').fill(target.case_no);
    await expect
      .poll(() => firstCell(page, 'case_no').textContent(), { timeout: 10_000 })
      .toBe(target.case_no);
    await page.getByLabel('Search cases').fill('zz-no-such-case');
    await page.getByText('No Records Found!').waitFor();
    await page.getByLabel('Search cases').fill('');
    await waitRows(page);

    // Page size 10.
    await page.getByTestId('page-size').selectOption('10');
    await waitRows(page);
    await expect.poll(() => caseGrid(page).locator('.ag-grid-scrolling-container .ag-row').count()).toBe(10);
  });

  it('manager: flag, history, assign, DNR and revert on case management', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await signedInPage(world, 'acme', 'manager', '/case-management');
    await page.getByTestId('case-list-case-management').waitFor();
    await page.getByTestId('tab-new_cases').click();
    await waitRows(page);
    const news = await api<ListAnswer>('/cm/cases?intent=case-management&filter_group=new_cases&limit=50');
    const c = news.data.find((r) => !r.flag?.is_flagged)!;
    await page.getByLabel('Search cases').fill(String(c.id));
    await expect.poll(() => firstCell(page, 'id').textContent(), { timeout: 10_000 }).toBe(String(c.id));

    // Flag with a comment.
    await rowAction(page, c.id, 'Flag Chargeback');
    await page.getByTestId('flag-dialog').getByRole('textbox').fill('e2e check');
    await page.getByTestId('flag-dialog').getByRole('button', { name: 'Flag' }).click();
    expect(await resultText(page)).toContain('Your action was a success!');
    const flagged = await api<{ flag: { is_flagged: boolean; comment: string } }>(`/cm/cases/${c.id}`);
    expect(flagged.flag).toMatchObject({ is_flagged: true, comment: 'e2e check' });

    // Assign to the agent.
    await rowAction(page, c.id, 'Assign Case');
    const select = page.getByTestId('assign-user');
    await expect.poll(() => select.locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    const agentValue = await select.locator('option', { hasText: '(agent)' }).getAttribute('value');
    await select.selectOption(agentValue!);
    await page.getByTestId('assign-dialog').getByRole('button', { name: 'Assign' }).click();
    expect(await resultText(page)).toContain('The case was successfully assigned!');
    expect(
      (await api<{ assigned_user: { username: string } }>(`/cm/cases/${c.id}`)).assigned_user.username,
    ).toBe('agent');

    // DNR then revert.
    await rowAction(page, c.id, 'Do Not Represent');
    await page.getByText('You are about to move this case to do not represent and mark as a loss').waitFor();
    await screenshot(page, 'cases-dnr-confirm');
    await page.getByTestId('dnr-dialog').getByRole('button', { name: 'Continue' }).click();
    expect(await resultText(page)).toContain('Your action was a success!');
    expect((await api<{ status_id: number }>(`/cm/cases/${c.id}`)).status_id).toBe(4);
    await page.getByTestId('tab-dnr').click();
    await expect.poll(() => firstCell(page, 'id').textContent(), { timeout: 10_000 }).toBe(String(c.id));
    await rowAction(page, c.id, 'Revert Do Not Represent');
    await page.getByText('You are about to revert case(s)').waitFor();
    await page.getByTestId('dnr-dialog').getByRole('button', { name: 'Continue' }).click();
    expect(await resultText(page)).toContain('Your action was a success!');
    expect((await api<{ status_id: number }>(`/cm/cases/${c.id}`)).status_id).toBe(1);

    // History shows the actions.
    await page.getByTestId('tab-new_cases').click();
    await expect.poll(() => firstCell(page, 'id').textContent(), { timeout: 10_000 }).toBe(String(c.id));
    await page.getByRole('button', { name: 'Case Menu' }).first().click();
    await page.getByRole('menuitem', { name: 'Case History' }).click();
    const history = page.getByTestId('history-dialog');
    await history.getByText(`Case History (Case No: ${c.case_no})`).waitFor();
    await history.getByText('Reverted Do Not Represent').waitFor();
    await screenshot(page, 'cases-history');
    await history.getByRole('button', { name: 'Close History' }).click();
    await screenshot(page, 'cases-case-management-manager');
  });

  it('agent: filter panel counts match the API and filter the list', async () => {
    const api = await apiAs(world, 'acme', 'agent');
    const { page } = await signedInPage(world, 'acme', 'agent', '/chargebacks');
    await waitRows(page);
    await page.getByTestId('filter-button').click();
    const rfi = await api<ListAnswer>('/cm/cases?intent=chargebacks&cycle=9&limit=0');
    await expect
      .poll(() => page.getByTestId('count-rfi').textContent(), { timeout: 10_000 })
      .toBe(rfi.pagination.total.toLocaleString('en-US'));
    await screenshot(page, 'cases-filter-panel-agent');
    await page.getByTestId('panel-rfi').click();
    await expect
      .poll(() => page.getByTestId('case-total').textContent(), { timeout: 10_000 })
      .toContain(rfi.pagination.total.toLocaleString('en-US'));
    await page.getByLabel('Expire days').fill('0');
    await page.getByText('Primary cases due to expire cannot be 0 days.').waitFor();
  });

  it('partner admin: sees the Merchant column; merchant user: no Merchant column, export page as Excel', async () => {
    const { page } = await signedInPage(world, 'acme', 'partner.admin', '/chargebacks');
    await waitRows(page);
    await expect(page.locator('.ag-header-cell[col-id="merchant_name"]').count()).resolves.toBe(1);
    await screenshot(page, 'cases-chargebacks-partner');

    const m = await world.newPage();
    await signInToShell(m.page, world, 'acme', 'merchant.user', undefined, '/case-management');
    await waitRows(m.page);
    await expect(m.page.locator('.ag-header-cell[col-id="merchant_name"]').count()).resolves.toBe(0);
    const download = m.page.waitForEvent('download');
    await m.page.getByTestId('tools-menu').click();
    await m.page.getByRole('menuitem', { name: 'Excel', exact: true }).click();
    const file = await download.catch(async (e: unknown) => {
      await screenshot(m.page, 'cases-excel-failed');
      throw e;
    });
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    await screenshot(m.page, 'cases-case-management-merchant-user');
  });

  it("manager: the verdict column follows the merchant's features as the switcher changes merchant", async () => {
    const { page } = await signedInPage(world, 'acme', 'manager', '/chargebacks');
    await waitRows(page);
    const header = (col: string) => page.locator(`.ag-header-cell[col-id="${col}"]`);
    // The root merchant has outcome verdicts and the platform: Outcome shows, Processor is offered.
    await expect(header('verdict').count()).resolves.toBe(1);
    await page.getByTestId('columns-menu').click();
    await expect(page.getByRole('menuitemcheckbox', { name: 'Processor' }).count()).resolves.toBe(1);
    await expect(page.getByRole('menuitemcheckbox', { name: 'Partner Company ID' }).count()).resolves.toBe(1);
    await page.keyboard.press('Escape');
    // Copper Kettle Coffee (merchantA2) has no features: no Outcome, no Processor; rows are its own.
    const switcher = page.getByTestId('merchant-switcher').locator('select');
    const a2 = await switcher.locator('option', { hasText: 'Copper Kettle Coffee' }).getAttribute('value');
    await switcher.selectOption(a2!);
    await expect.poll(() => header('verdict').count()).toBe(0);
    await waitRows(page);
    await expect.poll(() => firstCell(page, 'merchant_name').textContent()).toBe('Acme Copper Kettle Coffee');
    await page.getByTestId('columns-menu').click();
    await expect(page.getByRole('menuitemcheckbox', { name: 'Processor' }).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await screenshot(page, 'cases-chargebacks-merchant-without-verdicts');
  });

  it('read-only user: no actions menu, no bulk actions', async () => {
    const { page } = await signedInPage(world, 'acme', 'readonly', '/case-management');
    await waitRows(page);
    await expect(page.getByRole('button', { name: /Actions for case/ }).count()).resolves.toBe(0);
    await expect(page.getByTestId('bulk-menu').count()).resolves.toBe(0);
    await screenshot(page, 'cases-readonly');
  });
});
