/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ReportRows, WinRateRows } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { caseGrid, waitRows } from '../support/e2e-case-grid';
import {
  apiAs,
  gatewayCall,
  goInApp,
  networkQuiet,
  signedInPage,
  signInToShell,
  useWebWorld,
} from '../support/e2e-web';

/** Every report screen (issue 18) opens with its data drawn from the seeded rows. */
const world = useWebWorld();

const drawn = (page: Page, id: string) => page.getByTestId(`${id}-drawn`).waitFor({ timeout: 30_000 });

describe('report screens', () => {
  it('/reports draws the configured sections, filters by currency and shows the win rate', async () => {
    const boot = (await gatewayCall(world, 'acme', '/api/tenant')).json as { report_charts: string[] };
    const api = await apiAs(world, 'acme', 'admin');
    const { context, page } = await signedInPage(world, 'acme', 'admin');
    const started = Date.now();
    await page.goto(world.url('acme', '/reports'));
    await page.getByTestId('reports').waitFor();
    await drawn(page, 'report-card-type');
    console.info(`/reports first chart drawn in ${Date.now() - started} ms`);
    for (const chart of boot.report_charts) {
      await page
        .locator(`[data-testid="report-${chart}-drawn"], [data-testid="report-${chart}-empty"]`)
        .first()
        .waitFor({ timeout: 30_000 });
    }
    expect(await page.getByTestId('report-section').count()).toBeGreaterThan(0);
    // The card type donut shows the API's slices.
    const range = await page
      .getByTestId('filter-range')
      .locator('input')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join('|'));
    const cards = await api<{ data: { label: string }[] }>(
      `/cm/cases/reports/card-type?date_range=${range}&date_reference=post&limit=5`,
    );
    const legend = page.getByTestId('report-card-type').locator('.apexcharts-legend');
    await expect.poll(() => legend.textContent()).toContain(cards.data[0]!.label);
    await page.getByTestId('win-rate-row').first().waitFor();
    await screenshot(page, 'reports');

    // Currency type-ahead: 2+ characters, preferred currencies first.
    await page.getByTestId('filter-currency-input').click();
    await page.getByTestId('filter-currency-input').fill('U');
    await page.getByText('Please enter 2 or more characters').waitFor();
    await page.getByTestId('filter-currency-input').fill('US');
    const first = page.getByTestId('filter-currency-option').first();
    await expect.poll(() => first.textContent()).toMatch(/^USD/);
    await first.click();
    await expect.poll(() => page.getByTestId('filter-currency-input').inputValue()).toMatch(/^USD/);
    await drawn(page, 'report-card-type');
    await context.close();
  });

  it('Resultant KPI, MTD, alerts report and monitoring draw their data', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'admin');
    await page.goto(world.url('acme', '/resultant-kpi'));
    await drawn(page, 'kpi-chargebacks');
    await drawn(page, 'kpi-alerts');
    await screenshot(page, 'resultant-kpi');

    await page.goto(world.url('acme', '/mtd'));
    await page.getByTestId('mtd-chargebacks').waitFor();
    // The ratio reads as a percentage, this month's and the previous one's.
    expect(await page.getByTestId('mtd-ratio').textContent()).toMatch(
      /ratio %\d[\d,]*\.\d\d%Previous \d[\d,]*\.\d\d%/,
    );
    await drawn(page, 'mtd-daily');
    await screenshot(page, 'mtd');

    await page.goto(world.url('acme', '/reports/alerts'));
    await drawn(page, 'alerts-outcomes');
    await page.getByTestId('alerts-report-table').waitFor();
    await screenshot(page, 'reports-alerts');

    await page.goto(world.url('acme', '/reports/monitoring'));
    await page.getByTestId('monitoring-Visa').waitFor();
    await page.getByTestId('monitoring-row').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('monitoring-Visa').textContent()).toContain('0.9%');
    expect(await page.getByTestId('monitoring-Mastercard').textContent()).toContain('1.5%');
    await screenshot(page, 'reports-monitoring');
    await context.close();
  });

  it('MID health grid colours ratings and filters by rating (both routes)', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'admin');
    // Row 0 has the highest ratio (the default sort), so it has sales and a rating chip once loaded.
    for (const path of ['/mid-health-new', '/mid-health']) {
      await page.goto(world.url('acme', path));
      await page
        .locator(
          '[data-testid="mid-health-grid"] .ag-row[row-index="0"] [data-testid="mid-health-rating-cell"]',
        )
        .first()
        .waitFor({ timeout: 30_000 });
    }
    const health = page
      .locator('[data-testid="mid-health-grid"] .ag-row[row-index="0"] [col-id="health"]')
      .first();
    const rating = (await health.textContent())!.trim();
    expect(['Good', 'Low Risk', 'Medium Risk', 'High Risk']).toContain(rating);
    const chip = health.getByTestId('mid-health-rating-cell');
    expect(await chip.evaluate((e) => getComputedStyle(e).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    await screenshot(page, 'mid-health');
    await page.getByTestId('mid-health-rating').selectOption(rating);
    await page.waitForTimeout(500);
    const ratings = await page
      .locator('[data-testid="mid-health-grid"] .ag-row [col-id="health"]')
      .allTextContents();
    expect(ratings.length).toBeGreaterThan(0);
    expect(new Set(ratings.map((r) => r.trim()))).toEqual(new Set([rating]));
    await context.close();
  });

  it('reconciliation: flag with a comment, unflag and mark reviewed', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'merchant.admin');
    await page.goto(world.url('acme', '/reconciliation-report-new'));
    const row = page.getByTestId('reconciliation-row').first();
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole('checkbox').check({ force: true });
    await page.getByTestId('reconciliation-flag').click();
    await page.getByTestId('reconciliation-comment').fill('Missing from the processor file');
    await page.getByTestId('reconciliation-confirm').click();
    await expect
      .poll(() => row.getByTestId('reconciliation-flag-cell').textContent())
      .toContain('Missing from the processor file');
    await screenshot(page, 'reconciliation-flagged');

    await row.getByRole('checkbox').check({ force: true });
    await page.getByTestId('reconciliation-unflag').click();
    await page.getByTestId('reconciliation-unflag-dialog').waitFor();
    await page.getByTestId('reconciliation-confirm').click();
    await expect.poll(() => row.getByTestId('reconciliation-flag-cell').textContent()).toBe('');

    await row.getByRole('checkbox').check({ force: true });
    await page.getByTestId('reconciliation-review').click();
    await page.getByTestId('reconciliation-confirm').click();
    await page.getByText('The selected row(s) has been reviewed.').waitFor();
    await expect.poll(() => row.getByTestId('reconciliation-reviewer').textContent()).toBe('merchant.admin');
    await page.goto(world.url('acme', '/reconciliation-report'));
    await page.getByTestId('reconciliation-row').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'reconciliation');
    await context.close();
  });
});

/** The page's date range filter as the API takes it ('from|to'). */
const dateRange = (page: Page) =>
  page
    .getByTestId('filter-range')
    .locator('input')
    .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join('|'));

/** A cell of the win rate table as shown: the row of `label`, the column headed `column`. */
const winRateCell = (page: Page, label: string, column: string) =>
  page.getByTestId('win-rate').evaluate(
    (table, [label, column]) => {
      const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
      const row = [...table.querySelectorAll('[data-testid="win-rate-row"]')].find(
        (r) => r.querySelector('td')?.textContent?.trim() === label,
      );
      return row?.querySelectorAll('td')[headers.indexOf(column)]?.textContent?.trim() ?? null;
    },
    [label, column] as const,
  );

/** Opens /reports from the menu (no reload: the app's query cache stays). */
async function reportsFromMenu(page: Page) {
  const entry = page.getByTestId('menu-reports');
  if (!(await entry.isVisible()))
    await page.getByTestId('sidebar').getByRole('button', { name: 'Reports', exact: true }).click();
  await entry.click();
  await page.getByTestId('reports').waitFor();
}

describe('/reports after a case write', () => {
  it('a bulk verdict set in the chargebacks list shows on /reports at once (not after the 30 s cache)', async () => {
    const api = await apiAs(world, 'acme', 'admin');
    const { context, page } = await signedInPage(world, 'acme', 'admin', '/reports');
    await page.getByTestId('win-rate-row').first().waitFor({ timeout: 30_000 });
    const range = await dateRange(page);
    const winRate = async () =>
      (
        await api<WinRateRows>(
          `/cm/cases/reports/win-rate?date_range=${range}&date_reference=post&group_by=reason_code&limit=10`,
        )
      ).data;
    const top = (await winRate())[0]!;
    await expect.poll(() => winRateCell(page, top.label, 'Won')).toBe(top.won.toLocaleString('en-US'));

    // Two New cases of that reason code in the range, not won yet: the chargebacks list, in the app.
    const verdicts = await api<{ data: { id: number; name: string }[] }>('/cm/gen/verdicts?limit=50');
    const win = verdicts.data.find((v) => v.name === 'Win')!.id;
    const open = await api<{ data: { id: number; verdict_id: number }[] }>(
      `/cm/cases?intent=chargebacks&status_id=1&reason_code_id=${top.key}&date_range=${range}&limit=50`,
    );
    const verdict = open.data.find((c) => c.verdict_id !== win)!.verdict_id;
    await goInApp(
      page,
      `/chargebacks?status_id=1&reason_code_id=${top.key}&verdict_id=${verdict}&date_range=${encodeURIComponent(range)}`,
    );
    await page.getByTestId('case-list-chargebacks').waitFor();
    await waitRows(page);
    const ids = [
      ...new Set(
        await caseGrid(page)
          .locator('.ag-row[row-id]')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('row-id'))),
      ),
    ].slice(0, 2);
    expect(ids).toHaveLength(2);
    for (const id of ids)
      await caseGrid(page).locator(`.ag-row[row-id="${id}"] .ag-selection-checkbox input`).first().check();
    await expect.poll(() => page.getByTestId('bulk-menu').textContent()).toBe('Bulk Actions (2)');
    await page.getByTestId('bulk-menu').click();
    await page.getByRole('menuitem', { name: 'Edit Verdict', exact: true }).click();
    const dialog = page.getByTestId('edit-dialog');
    await dialog.getByText('2 cases selected.').waitFor();
    const select = dialog.getByTestId('edit-verdict');
    await expect.poll(() => select.locator('option').count()).toBeGreaterThan(1);
    await select.selectOption({ label: 'Win' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Saved (the result dialog shows for 2 s only: on a loaded machine a test may miss it).
    const won = async () => (await winRate()).find((r) => r.key === top.key)!.won;
    await expect.poll(won).toBe(top.won + 2);
    await page.getByTestId('result-dialog').waitFor({ state: 'detached' });

    // Back to Reports from the menu: the new figure, without waiting for the cache to expire.
    await reportsFromMenu(page);
    await expect.poll(() => winRateCell(page, top.label, 'Won')).toBe((top.won + 2).toLocaleString('en-US'));
    await screenshot(page, 'reports-after-bulk-verdict');
    await context.close();
  });
});

/** The donuts of /reports (spec 2 §9: labels outside, largest slice highlighted, none under 1%). */
const DONUTS = {
  'cases-status-totals': undefined,
  verdict: 5,
  'cb-by-reason-code': 5,
  'card-type': 5,
} as const;
type Donut = keyof typeof DONUTS;

/**
 * What a donut draws: its labels' texts, the pulled-out slice, and what keeps a label from being read
 * whole or tied to its slice: outside the chart, over another label, across a slice's edge (into the
 * white centre, onto the next slice), too little contrast with what is behind it, or a leader line
 * that does not start at its slice.
 */
const donutDrawing = (page: Page, chart: Donut) =>
  page.getByTestId(`report-${chart}-drawn`).evaluate((card) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
    const luminance = (c: string) => {
      const [r, g, b] = rgb(c).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const contrast = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    const svg = card.querySelector('svg')!.getBoundingClientRect();
    const slices = [...card.querySelectorAll<SVGPathElement>('.apexcharts-pie-area')];
    const sliceAt = (x: number, y: number) =>
      slices.findIndex((p) =>
        p.isPointInFill(new DOMPoint(x, y).matrixTransform(p.getScreenCTM()!.inverse())),
      );
    const labels = [
      ...card.querySelectorAll<SVGTextElement>('.apexcharts-pie-label, .apexcharts-pie-name-label'),
    ].filter((t) => t.textContent?.trim());
    const boxes = labels.map((t) => t.getBoundingClientRect());
    const problems: string[] = [];
    labels.forEach((label, i) => {
      const text = label.textContent!.trim();
      const b = boxes[i]!;
      if (b.left < svg.left || b.right > svg.right || b.top < svg.top || b.bottom > svg.bottom)
        problems.push(`${text}: outside the chart`);
      boxes.forEach((o, j) => {
        if (j > i && b.left < o.right && o.left < b.right && b.top < o.bottom && o.top < b.bottom)
          problems.push(`${text}: over ${labels[j]!.textContent}`);
      });
      const under = new Set<number>();
      for (let x = 0; x <= 6; x++)
        for (let y = 0; y <= 2; y++)
          under.add(sliceAt(b.left + 1 + ((b.width - 2) * x) / 6, b.top + 2 + ((b.height - 4) * y) / 2));
      if (under.size > 1) problems.push(`${text}: across a slice edge`);
      const behind =
        under.size === 1 && !under.has(-1)
          ? getComputedStyle(slices[[...under][0]!]!).fill
          : 'rgb(255, 255, 255)';
      if (contrast(getComputedStyle(label).fill, behind) < 4.5) problems.push(`${text}: low contrast`);
    });
    // Each label's line starts on its slice's rim: just inside it is a slice, just outside it none.
    for (const line of card.querySelectorAll<SVGPathElement>('.apexcharts-pie-label-connector')) {
      const [ax, ay, ex, ey] = (line.getAttribute('d')!.match(/-?[\d.]+/g) ?? []).map(Number) as [
        number,
        number,
        number,
        number,
      ];
      const length = Math.hypot(ex - ax, ey - ay);
      const at = (d: number) =>
        new DOMPoint(ax + ((ex - ax) * d) / length, ay + ((ey - ay) * d) / length).matrixTransform(
          line.getScreenCTM()!,
        );
      const [inside, outside] = [at(-2), at(2)];
      if (sliceAt(inside.x, inside.y) < 0 || sliceAt(outside.x, outside.y) >= 0)
        problems.push(`${line.parentElement?.textContent}: its line does not start at its slice`);
    }
    const pulled = slices
      .filter((p) => p.getAttribute('data:pieClicked') === 'true')
      .map((p) => Number(p.getAttribute('j')));
    return { labels: labels.map((t) => t.textContent!.trim()), pulled, problems };
  });

/** What the donut should draw by the API: every label of 1% or more, and the largest row pulled out. */
function expectedDonut(answer: ReportRows, limit: number | undefined) {
  const rest = answer.total - answer.data.reduce((s, r) => s + r.count, 0);
  const percents = [
    ...answer.data.map((r) => r.percent),
    ...(limit && rest > 0 ? [Math.round((rest / answer.total) * 10_000) / 100] : []),
  ];
  const largest = answer.data.reduce((best, r, i) => (r.count > answer.data[best]!.count ? i : best), 0);
  return {
    labels: percents.filter((p) => p >= 1).map((p) => `${p.toFixed(1)}%`),
    pulled: answer.data.length ? [largest] : [],
    problems: [],
  };
}

describe('/reports donuts', () => {
  it('pull out the largest slice and label each slice readably with its percent of all chargebacks', async () => {
    const { context, page } = await world.newPage({ width: 1440, height: 2400 });
    // The charts' own answers, newest per chart (the filters change them).
    const answers = new Map<string, ReportRows>();
    page.on('response', (r) => {
      const chart = /\/api\/cm\/cases\/reports\/([a-z-]+)\?/.exec(r.url())?.[1];
      if (!chart || !(chart in DONUTS) || !r.ok()) return;
      // A body the browser already dropped (the page moved on, the test ended) was an answer superseded.
      r.json().then(
        (body) => answers.set(chart, body as ReportRows),
        () => undefined,
      );
    });
    await signInToShell(page, world, 'acme', 'admin', undefined, '/reports');
    const check = async (step: string) => {
      await networkQuiet(page);
      for (const chart of Object.keys(DONUTS) as Donut[]) {
        await page.getByTestId(`report-${chart}-drawn`).locator('svg').first().waitFor({ timeout: 30_000 });
        const want = expectedDonut(answers.get(chart)!, DONUTS[chart]);
        await expect.poll(() => donutDrawing(page, chart), { message: `${step}: ${chart}` }).toEqual(want);
      }
    };
    await check('30 days');
    await screenshot(page, 'reports-donuts-30d');
    // 1Y for one merchant: another slice is the largest, a slice of 2% has a label.
    await page.getByTestId('filter-range').getByRole('button', { name: '1Y' }).click();
    await page
      .getByTestId('merchant-switcher')
      .locator('select')
      .selectOption({ label: 'Acme Blue Sky Outfitters' });
    await check('1Y, Blue Sky Outfitters');
    await screenshot(page, 'reports-donuts-1y-merchant');
    // A narrower window: ApexCharts draws each donut again, the pulled-out slice's labels with it.
    const width = () =>
      page.getByTestId('report-cases-status-totals-drawn').locator('svg').first().getAttribute('width');
    const before = await width();
    await page.setViewportSize({ width: 1200, height: 2400 });
    await expect.poll(width).not.toBe(before);
    await check('1Y, Blue Sky Outfitters, after a resize');
    await context.close();
  });
});
