import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANTS, demoMerchantId, demoTenant, MERCHANT_FEATURE } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { apiAs, signInToShell, useWebWorld, type TenantId } from '../support/e2e-web';

/**
 * The case lists' advanced search against the full stack (spec 2 §2.2, §9):
 * paged and searched select filters, the assigned-user search, every field
 * type, role- and feature-dependent fields, the overwrite confirmation and
 * the configuration's failure modes.
 */
const world = useWebWorld();

interface Page_<T> {
  data: T[];
  pagination: { total: number };
}
type Api = Awaited<ReturnType<typeof apiAs>>;

const WAIT = { timeout: 15_000 };
const us = (n: number) => n.toLocaleString('en-US');

async function openList(page: Page, tenant: TenantId, username: string, path = '/chargebacks') {
  await signInToShell(page, world, tenant, username, undefined, path);
  await page.getByTestId('case-grid').locator('.ag-row[row-index="0"]').first().waitFor({ timeout: 20_000 });
}

async function openAdvanced(page: Page) {
  await page.getByTestId('advanced-button').click();
  await page.getByTestId('advanced-search').waitFor();
}

const fieldLabels = (page: Page) =>
  page.getByTestId('advanced-search').locator('[data-field-label]').allTextContents();

/** The case total the list shows equals the API's total for the same query. */
async function expectTotal(page: Page, api: Api, query: string) {
  const { pagination } = await api<Page_<unknown>>(`/cm/cases?intent=chargebacks&limit=0&${query}`);
  await expect
    .poll(() => page.getByTestId('case-total').textContent(), WAIT)
    .toBe(`${us(pagination.total)} case(s)`);
  return pagination.total;
}

/** A paged select's parts: its trigger, the popover, the option list and the pager. */
function select(page: Page, label: string) {
  const dialog = page.getByRole('dialog', { name: `Choose ${label}` });
  const list = dialog.getByRole('listbox', { name: label });
  return {
    trigger: page.getByRole('button', { name: new RegExp(`^${label}:`) }),
    dialog,
    list,
    options: list.getByRole('option'),
    search: dialog.getByRole('combobox', { name: `Search ${label}` }),
    pageNumber: dialog.getByLabel(`${label} page number`),
    pageSize: dialog.getByLabel(`${label} options per page`),
    next: dialog.getByRole('button', { name: `${label} next page` }),
    previous: dialog.getByRole('button', { name: `${label} previous page` }),
    optionTexts: () => list.getByRole('option').allTextContents(),
  };
}

describe('advanced search', () => {
  it('manager: reason codes paged, searched and chosen as tags; the list matches the API', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page, context } = await world.newPage();
    await openList(page, 'acme', 'manager');
    await openAdvanced(page);
    expect(await fieldLabels(page)).toEqual([
      'Case Number',
      'Order ID',
      'MIDs',
      'Reason Code',
      'Card Type',
      'Verdict',
      'Dispute Amount',
      'Post Date',
      'Due Date',
      'Assigned To',
      'Fraud',
    ]);

    const rc = select(page, 'Reason Code');
    await rc.trigger.click();
    await expect.poll(() => rc.options.count(), WAIT).toBe(5);
    const all = await api<Page_<{ id: number; name: string }>>('/cm/gen/rc?start=0&limit=5');
    const pages = Math.ceil(all.pagination.total / 5);
    expect(await rc.optionTexts()).toEqual(all.data.map((r) => r.name));
    await rc.dialog.getByText(`of ${pages}`).waitFor();
    await screenshot(page, 'advanced-search-reason-codes');

    // The page number stays within 1..pages.
    await rc.pageNumber.fill(String(pages + 40));
    await expect.poll(() => rc.pageNumber.inputValue()).toBe(String(pages));
    const last = await api<Page_<{ name: string }>>(`/cm/gen/rc?start=${(pages - 1) * 5}&limit=5`);
    await expect.poll(() => rc.optionTexts(), WAIT).toEqual(last.data.map((r) => r.name));
    expect(await rc.next.isDisabled()).toBe(true);
    await rc.pageNumber.fill('0');
    await expect.poll(() => rc.pageNumber.inputValue()).toBe('1');
    expect(await rc.previous.isDisabled()).toBe(true);

    // Page sizes 5, 10, 25.
    expect(await rc.pageSize.locator('option').allTextContents()).toEqual([
      '5 / page',
      '10 / page',
      '25 / page',
    ]);
    await rc.pageSize.selectOption('10');
    await expect.poll(() => rc.options.count(), WAIT).toBe(10);
    await rc.pageSize.selectOption('5');

    // Search (debounced): nothing found, then a real term; choices survive searching and paging.
    await rc.search.fill('zz-no-such-code');
    await rc.dialog.getByText('No results found').waitFor(WAIT);
    await rc.search.fill('visa');
    const visa = await api<Page_<{ id: number; name: string }>>('/cm/gen/rc?search=visa&start=0&limit=10');
    await expect.poll(() => rc.optionTexts(), WAIT).toEqual(visa.data.slice(0, 5).map((r) => r.name));
    await rc.options.first().click();
    await rc.next.click();
    await expect.poll(() => rc.optionTexts(), WAIT).toEqual(visa.data.slice(5, 10).map((r) => r.name));
    // The keyboard: arrow to the second option of this page and choose it with Enter.
    await rc.search.press('ArrowDown');
    await rc.search.press('Enter');
    const chosen = [visa.data[0]!, visa.data[6]!];
    await expect
      .poll(() => rc.list.locator('[aria-selected="true"]').allTextContents())
      .toEqual([chosen[1]!.name]);
    await rc.search.fill('');
    await page.keyboard.press('Escape');
    await rc.dialog.waitFor({ state: 'hidden' });
    const tags = page.getByRole('group', { name: 'Reason Code chosen' });
    expect(await tags.textContent()).toBe(chosen.map((r) => r.name).join(''));
    await expect(rc.trigger.textContent()).resolves.toContain('2 selected');
    await screenshot(page, 'advanced-search-reason-code-tags');

    await page.getByTestId('advanced-search-submit').click();
    await expectTotal(page, api, `reason_code_id=${chosen.map((r) => r.id).join(',')}`);
    await expect(page.getByTestId('advanced-button').textContent()).resolves.toContain('(applied)');

    // A removed tag leaves the other choice.
    await tags.getByRole('button', { name: `Remove ${chosen[0]!.name}` }).click();
    await page.getByTestId('advanced-search-submit').click();
    await expectTotal(page, api, `reason_code_id=${chosen[1]!.id}`);
    await context.close();
  });

  it('manager: assigned-user search, text, MIDs, amount, dates and fraud narrow the list like the API', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page, context } = await world.newPage();
    await openList(page, 'acme', 'manager');
    await openAdvanced(page);

    // Assigned To: the assignable users (managers and agents), searched 500 ms after typing.
    const users = select(page, 'Assigned To');
    await users.trigger.click();
    const managers = await api<Page_<unknown>>('/users/users?role=8&limit=0');
    const agents = await api<Page_<unknown>>('/users/users?role=9&limit=0');
    const assignable = managers.pagination.total + agents.pagination.total;
    await expect.poll(() => users.options.count(), WAIT).toBe(Math.min(5, assignable));
    await users.search.fill('alex agent');
    await expect.poll(() => users.optionTexts(), WAIT).toEqual(['Alex Agent (agent)']);
    await users.options.first().click();
    await users.dialog.waitFor({ state: 'hidden' });
    await expect(users.trigger.textContent()).resolves.toContain('Alex Agent (agent)');
    const agent = (
      await api<Page_<{ id: number; username: string }>>('/users/users?role=9&search=agent')
    ).data.find((u) => u.username === 'agent')!;
    await page.getByTestId('advanced-search-submit').click();
    await expectTotal(page, api, `assigned_user_id=${agent.id}`);
    await page.getByRole('button', { name: 'Clear Search' }).click();
    await expect(users.trigger.textContent()).resolves.toContain('All');

    // MIDs: Enter or leaving the box adds an entry, never twice.
    const cases = await api<Page_<{ mid: string; case_no: string; dispute_amt: number }>>(
      '/cm/cases?intent=chargebacks&limit=50',
    );
    const mids = [...new Set(cases.data.map((c) => c.mid))].slice(0, 2);
    const midBox = page.getByRole('textbox', { name: 'MIDs', exact: true });
    await midBox.fill(mids[0]!);
    await midBox.press('Enter');
    await midBox.fill(` ${mids[0]!} `);
    await midBox.press('Enter');
    await midBox.fill(mids[1] ?? mids[0]!);
    await page.getByRole('textbox', { name: 'Case Number', exact: true }).click(); // blur adds it
    const midTags = page.getByRole('group', { name: 'MIDs entries' });
    await expect.poll(() => midTags.getByRole('button').count()).toBe(new Set(mids).size);
    await page.getByTestId('advanced-search-submit').click();
    await expectTotal(page, api, `mid=${mids.join(',')}`);
    await page.getByRole('button', { name: 'Clear Search' }).click();

    // Amount: the operator follows the value (blank when empty, the configured >= when typed).
    const operator = page.getByRole('combobox', { name: 'Dispute Amount operator' });
    const amount = page.getByRole('spinbutton', { name: 'Dispute Amount', exact: true });
    expect(await operator.inputValue()).toBe('');
    expect(await operator.locator('option').allTextContents()).toEqual(['—', '<', '<=', '=', '>', '>=']);
    await amount.fill('100');
    expect(await operator.inputValue()).toBe('>=');
    await operator.selectOption('<');
    await amount.fill('');
    expect(await operator.inputValue()).toBe('');
    await amount.fill('100');
    await operator.selectOption('<');

    // Dates, post and due, and the Fraud choice from default options.
    const from = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date().toISOString().slice(0, 10);
    await page.locator('input[aria-label="Post Date from"]').fill(from);
    await page.locator('input[aria-label="Post Date to"]').fill(to);
    expect(await page.locator('input[aria-label="Post Date to"]').getAttribute('max')).toBe(to);
    const fraud = select(page, 'Fraud');
    await fraud.trigger.click();
    await expect.poll(() => fraud.optionTexts(), WAIT).toEqual(['Yes', 'No']);
    // Two options: no page sizes.
    expect(await fraud.pageSize.count()).toBe(0);
    await fraud.options.filter({ hasText: 'No' }).click();
    await screenshot(page, 'advanced-search-filled');
    await page.getByTestId('advanced-search-submit').click();
    const n = await expectTotal(
      page,
      api,
      `dispute_amt=100&dispute_amt_operator=${encodeURIComponent('<')}&date_range=${from}|${to}&is_fraud=0`,
    );
    expect(n).toBeGreaterThan(0);

    // Clearing a date range with its clear icon.
    await page.getByRole('button', { name: 'Clear Post Date' }).click();
    expect(await page.locator('input[aria-label="Post Date from"]').inputValue()).toBe('');

    // Text: case number prefix.
    await page.getByRole('button', { name: 'Clear Search' }).click();
    await page.getByRole('textbox', { name: 'Case Number', exact: true }).fill(cases.data[0]!.case_no);
    await page.getByRole('textbox', { name: 'Case Number', exact: true }).press('Enter');
    await expectTotal(page, api, `case_no=${encodeURIComponent(cases.data[0]!.case_no)}`);

    // A filter-panel choice while an advanced search is applied asks before overwriting it.
    await page.getByTestId('filter-button').click();
    await page.getByTestId('panel-rfi').click();
    const overwrite = page.getByTestId('overwrite-dialog');
    await overwrite.getByText('Applying this filter will overwrite your advanced search.').waitFor();
    await screenshot(page, 'advanced-search-overwrite');
    await overwrite.getByRole('button', { name: 'Continue' }).click();
    await expectTotal(page, api, 'cycle=9');
    await expect(page.getByTestId('advanced-button').textContent()).resolves.not.toContain('(applied)');
    await context.close();
  });

  it('merchant roles: no assigned-user field; the verdict filter follows the merchant feature', async () => {
    const { page, context } = await world.newPage();
    await openList(page, 'acme', 'merchant.admin', '/case-management');
    await openAdvanced(page);
    const labels = await fieldLabels(page);
    expect(labels).not.toContain('Assigned To');
    // Blue Sky Outfitters has outcome verdicts (feature 2).
    expect(labels).toContain('Verdict');
    await context.close();
  });

  it('staff working a merchant without outcome verdicts (northbank) see no verdict filter', async () => {
    const api = await apiAs(world, 'northbank', 'admin');
    const northbank = demoTenant('northbank');
    let without: { id: number; business_name: string } | undefined;
    for (const m of DEMO_MERCHANTS) {
      const details = await api<{ id: number; business_name: string; features: { id: number }[] }>(
        `/cm/merchants/${demoMerchantId(northbank, m.key)}`,
      );
      if (!details.features.some((f) => f.id === MERCHANT_FEATURE.verdicts)) without = details;
    }
    expect(without, 'a northbank demo merchant without feature 2').toBeDefined();

    const { page, context } = await world.newPage();
    await openList(page, 'northbank', 'admin');
    await openAdvanced(page);
    // The root merchant has outcome verdicts; Order ID is configured but not enabled.
    await expect.poll(() => fieldLabels(page), WAIT).toContain('Outcome');
    expect(await fieldLabels(page)).not.toContain('Order ID');
    expect(await fieldLabels(page)).toContain('Assigned To');
    const outcome = select(page, 'Outcome');
    await outcome.trigger.click();
    const verdicts = await api<Page_<{ name: string }>>('/cm/gen/verdicts?limit=0');
    await expect.poll(() => outcome.options.count(), WAIT).toBe(Math.min(5, verdicts.pagination.total));
    expect(await outcome.pageSize.count()).toBe(verdicts.pagination.total > 5 ? 1 : 0);
    await page.keyboard.press('Escape');

    await page.getByTestId('merchant-switcher').locator('select').selectOption(String(without!.id));
    await expect.poll(() => fieldLabels(page), WAIT).not.toContain('Outcome');
    expect(await fieldLabels(page)).toContain('Reason Code');
    await screenshot(page, 'advanced-search-northbank-no-verdicts');
    await context.close();
  });

  it('configuration failures: load error message and an unknown field type', async () => {
    const { page, context } = await world.newPage();
    await openList(page, 'acme', 'agent');
    await page.route('**/api/config/cfg/cases_advanced_filters', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' }),
    );
    await page.getByTestId('advanced-button').click();
    await page
      .getByText('An error occurred while loading the advanced search filters. Please try again later.')
      .waitFor(WAIT);
    await context.close();

    const second = await world.newPage();
    await second.page.route('**/api/config/cfg/cases_advanced_filters', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          attr: {
            filters: [
              { alias: 'case_no', label: 'Case Number', type: 'text', is_enabled: true },
              { alias: 'mystery', label: 'Mystery', type: 'slider', is_enabled: true },
            ],
          },
        }),
      }),
    );
    await openList(second.page, 'acme', 'agent');
    await openAdvanced(second.page);
    await second.page
      .getByTestId('advanced-field-mystery')
      .getByText('Unknown property in payload')
      .waitFor();
    await second.context.close();
  });
});
