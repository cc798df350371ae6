import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { firstCell, waitRows } from '../support/e2e-case-grid';
import { apiAs, signedInPage, signInToShell, useWebWorld } from '../support/e2e-web';

/**
 * Case lists that remember (issue 21): the chargebacks list's filters, sort,
 * page size and page are in the URL; Back steps through them; the copied link
 * opens the same list for another user of the same merchant (acme's manager
 * and agent both belong to the provider's root merchant); a saved view
 * outlives the session and a shared one shows in the other user's menu.
 */
const world = useWebWorld();

interface ListAnswer {
  data: { id: number }[];
  pagination: { total: number };
}

const firstId = (page: Page) => firstCell(page, 'id').textContent();
const search = (page: Page) => new URL(page.url()).searchParams;
const pagerPage = (page: Page) => page.getByTestId('case-pager-page').textContent();

async function openList(page: Page) {
  await page.getByTestId('case-list-chargebacks').waitFor();
  await waitRows(page);
}

describe('case list URL state and saved views', () => {
  it('keeps filters, sort and page in the URL, for Back, another user and saved views', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page, context } = await signedInPage(world, 'acme', 'manager', '/chargebacks');
    await openList(page);
    expect(page.url()).not.toContain('?');

    // Filter panel: Primary Cycle.
    await page.getByTestId('filter-button').click();
    await page.getByTestId('panel-primary').click();
    await expect.poll(() => search(page).get('panel')).toBe('primary');
    await page.getByTestId('filter-panel').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('filter-button').textContent()).toBe('Filter: Primary Cycle');

    // Sort by case number through the header, then 10 rows a page and the next page.
    await page.locator('.ag-header-cell[col-id="case_no"] .ag-header-cell-label').click();
    await expect.poll(() => search(page).get('sort_by')).toBe('case_no');
    expect(search(page).get('sort_order')).toBe('asc');
    await page.getByTestId('page-size').selectOption('10');
    await expect.poll(() => search(page).get('limit')).toBe('10');
    await expect.poll(() => page.getByTestId('case-pager-range').textContent()).toMatch(/^1 to 10 of/);
    await page.getByRole('button', { name: 'Next Page' }).click();
    await expect.poll(() => search(page).get('start')).toBe('10');

    const base = '/cm/cases?intent=chargebacks&cycle=1&sort_by=case_no&sort_order=asc&limit=10';
    const page1 = await api<ListAnswer>(`${base}&start=0`);
    const page2 = await api<ListAnswer>(`${base}&start=10`);
    expect(page1.data[0]!.id).not.toBe(page2.data[0]!.id);
    await expect.poll(() => firstId(page)).toBe(String(page2.data[0]!.id));
    await expect.poll(() => pagerPage(page)).toMatch(/^Page 2 of/);
    const link = page.url();
    await screenshot(page, 'case-list-url-manager');

    // Back: page one of the same list; Back again: 50 rows a page; Forward returns to the link.
    await page.goBack();
    await expect.poll(() => search(page).get('start')).toBeNull();
    await expect.poll(() => firstId(page)).toBe(String(page1.data[0]!.id));
    await expect.poll(() => pagerPage(page)).toMatch(/^Page 1 of/);
    await page.goBack();
    await expect.poll(() => search(page).get('limit')).toBeNull();
    expect(search(page).get('sort_by')).toBe('case_no');
    await expect.poll(() => page.getByTestId('page-size').inputValue()).toBe('50');
    await page.goForward();
    await page.goForward();
    await expect.poll(() => page.url()).toBe(link);
    await expect.poll(() => firstId(page)).toBe(String(page2.data[0]!.id));

    // The copied link, opened by another user of the same merchant, shows the same list.
    const other = await signedInPage(world, 'acme', 'agent', new URL(link).pathname + new URL(link).search);
    await openList(other.page);
    expect(new URL(other.page.url()).search).toBe(new URL(link).search);
    await expect.poll(() => firstId(other.page)).toBe(String(page2.data[0]!.id));
    await expect.poll(() => pagerPage(other.page)).toBe(await pagerPage(page));
    expect(await other.page.getByTestId('case-total').textContent()).toBe(
      await page.getByTestId('case-total').textContent(),
    );
    expect(await other.page.getByTestId('filter-button').textContent()).toBe('Filter: Primary Cycle');
    expect(await other.page.getByTestId('page-size').inputValue()).toBe('10');

    // A hand-edited link with bad values opens the default list instead of failing.
    await other.page.goto(world.url('acme', '/chargebacks?limit=7&sort_by=password&panel=%00&start=-3'));
    await openList(other.page);
    await expect.poll(() => pagerPage(other.page)).toMatch(/^Page 1 of/);
    expect(await other.page.getByTestId('page-size').inputValue()).toBe('50');
    expect(await other.page.getByTestId('filter-button').textContent()).toBe('Filter');

    // Save the manager's list as a shared view.
    await page.getByTestId('views-menu').click();
    await page.getByTestId('save-view').click();
    await page.getByLabel('View name').fill('Primary by case number');
    await page.getByText('Share with the users of my merchant').click();
    await page.getByTestId('save-view-submit').click();
    await page.getByTestId('save-view-dialog').waitFor({ state: 'detached' });

    // Sign out and in again, on the plain list: the view is there and opens the list as saved.
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-in-form').waitFor();
    await context.clearCookies();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/chargebacks');
    await openList(page);
    expect(new URL(page.url()).search).toBe('');
    await page.getByTestId('views-menu').click();
    await page.getByTestId('saved-view').filter({ hasText: 'Primary by case number' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe(new URL(link).search);
    await expect.poll(() => firstId(page)).toBe(String(page2.data[0]!.id));
    await screenshot(page, 'case-list-url-saved-view');

    // The shared view shows in the agent's menu with the owner's name, and opens the same list there.
    await other.page.goto(world.url('acme', '/chargebacks'));
    await openList(other.page);
    await other.page.getByTestId('views-menu').click();
    const shared = other.page.getByTestId('saved-view').filter({ hasText: 'Primary by case number' });
    await expect.poll(() => shared.textContent()).toMatch(/shared by .*Manager/i);
    await screenshot(other.page, 'case-list-url-shared-view');
    await shared.click();
    await expect.poll(() => new URL(other.page.url()).search).toBe(new URL(link).search);
    await expect.poll(() => firstId(other.page)).toBe(String(page2.data[0]!.id));
    // Only its owner manages it: the agent has no own views to manage.
    await other.page.getByTestId('views-menu').click();
    await expect(other.page.getByTestId('manage-views').count()).resolves.toBe(0);
    await other.page.keyboard.press('Escape');

    // A merchant user of another merchant does not see it.
    const merchantUser = await apiAs(world, 'acme', 'merchant.user');
    const views = await merchantUser<{ data: { name: string }[] }>('/users/saved-views?list=cases');
    expect(views.data.map((v) => v.name)).not.toContain('Primary by case number');

    await other.context.close();
    await context.close();
  }, 180_000);
  it('the alerts grid keeps its filters and sort in the URL, with shared saved views', async () => {
    const { page, context } = await signedInPage(world, 'acme', 'merchant.admin', '/alerts');
    await page.getByTestId('alerts-grid').waitFor();
    await page.getByTestId('alerts-search').fill('ORD');
    await expect.poll(() => search(page).get('search')).toBe('ORD');
    await page.getByRole('columnheader', { name: 'Alert ID', exact: true }).first().click();
    await expect.poll(() => search(page).get('sort_by')).toBe('alert_id');
    const link = page.url();
    await page.goBack();
    await expect.poll(() => search(page).get('sort_by')).toBeNull();
    expect(search(page).get('search')).toBe('ORD');
    await page.goForward();
    await expect.poll(() => page.url()).toBe(link);

    await page.getByTestId('views-menu').click();
    await page.getByTestId('save-view').click();
    await page.getByLabel('View name').fill('ORD alerts by id');
    await page.getByText('Share with the users of my merchant').click();
    await page.getByTestId('save-view-submit').click();
    await page.getByTestId('save-view-dialog').waitFor({ state: 'detached' });

    // A read-only user of the same merchant opens the shared view.
    const other = await signedInPage(world, 'acme', 'readonly', '/alerts');
    await other.page.getByTestId('alerts-grid').waitFor();
    await other.page.getByTestId('views-menu').click();
    await other.page.getByTestId('saved-view').filter({ hasText: 'ORD alerts by id' }).click();
    await expect.poll(() => new URL(other.page.url()).search).toBe(new URL(link).search);
    await expect.poll(() => other.page.getByTestId('alerts-search').inputValue()).toBe('ORD');
    // Through the gateway, a read-only user may keep views of their own (a personal setting).
    const readonly = await apiAs(world, 'acme', 'readonly');
    const own = await readonly<{ is_owner: boolean }>('/users/saved-views', {
      method: 'POST',
      body: { list: 'alerts', path: '/alerts', name: 'Read-only view', query: 'search=ORD' },
    });
    expect(own.is_owner).toBe(true);
    await other.context.close();
    await context.close();
  }, 120_000);

  it('the alerts grid keeps its page in the URL: a link opens it, Back returns to it, a new sort starts over', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const range = `from=${day(-365)}&to=${day(0)}`;
    const { page, context } = await signedInPage(world, 'acme', 'admin', `/alerts?${range}&start=100`);
    // The pager's first row on the page: 50 a page, offset 100 is page 3.
    const current = page.locator('.ag-paging-panel [data-ref="lbFirstRowOnPage"]');
    await expect.poll(() => current.textContent(), { timeout: 15_000 }).toBe('101');
    await page.locator('.ag-paging-panel [aria-label="Next Page"]').click();
    await expect.poll(() => search(page).get('start')).toBe('150');
    await expect.poll(() => current.textContent()).toBe('151');
    await page.goBack();
    await expect.poll(() => search(page).get('start')).toBe('100');
    await expect.poll(() => current.textContent()).toBe('101');
    await page.getByRole('columnheader', { name: 'Alert ID', exact: true }).first().click();
    await expect.poll(() => search(page).get('sort_by')).toBe('alert_id');
    expect(search(page).get('start')).toBeNull();
    await expect.poll(() => current.textContent()).toBe('1');
    await screenshot(page, 'alerts-page-url');
    await context.close();
  }, 120_000);
});
