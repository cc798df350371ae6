/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { apiAs, openRowMenuItem, signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/** QC review, admin review and the invalid chargebacks list against the full stack (spec 2 §2.4, §2.5). */
let world: WebWorld;

beforeAll(async () => {
  world = await startWebWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

const grid = (page: Page) => page.getByTestId('case-grid');
const firstCell = (page: Page, col: string) =>
  grid(page).locator(`.ag-row[row-index="0"] [col-id="${col}"]`).first();
const waitRows = (page: Page) => firstCell(page, 'id').waitFor({ timeout: 20_000 });
const db = () => world.t.db;

/** In-app navigation (no reload): the router follows popstate. */
async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

async function resultText(page: Page): Promise<string> {
  const d = page.getByTestId('result-dialog');
  await d.waitFor();
  const text = (await d.textContent()) ?? '';
  await d.waitFor({ state: 'detached', timeout: 5_000 });
  return text;
}

const caseIdInUrl = (page: Page) => Number(/view-case\/(\d+)/.exec(page.url())?.[1] ?? NaN);
const markOf = async (id: number) =>
  (
    await db().query<{ username: string; type: string }>(
      `select username, type from cases.case_marks where case_id = $1`,
      [id],
    )
  ).rows[0];
const statusOf = async (id: number) =>
  Number(
    (await db().query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [id]))
      .rows[0]!.status_id,
  );

describe('QC and admin review', () => {
  it('manager: QC review end to end (queue, open marks, Add ERT, approve, next, release, empty queue)', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-qc-review');
    await page.getByTestId('case-list-qc-review').waitFor();
    await waitRows(page);
    const queue = await api<{ data: { id: number; status_id: number }[]; pagination: { total: number } }>(
      '/cm/cases/qc?limit=50',
    );
    expect(queue.pagination.total).toBeGreaterThan(1);
    expect(await firstCell(page, 'id').textContent()).toBe(String(queue.data[0]!.id));
    await screenshot(page, 'cases-qc-review-list');

    // Start: the next case opens and is marked for the manager.
    await page.getByTestId('qc-start').click();
    await page.getByTestId('qc-case').waitFor({ timeout: 20_000 });
    await expect.poll(() => caseIdInUrl(page)).toBeGreaterThan(0);
    const first = caseIdInUrl(page);
    await expect.poll(() => markOf(first)).toMatchObject({ username: 'manager', type: 'qc-review' });
    await page.getByText(`CB ID ${first}`).first().waitFor();

    // Add ERT: Add is disabled until there is content.
    await page.getByRole('button', { name: 'Add ERT' }).click();
    const ert = page.getByTestId('ert-dialog');
    await expect(ert.getByRole('button', { name: 'Add', exact: true }).isDisabled()).resolves.toBe(true);
    await ert.getByLabel('Content').fill('Issuer confirmed the refund policy was shown.');
    await ert.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await resultText(page)).toContain('ERT record successfully saved.');
    await page.getByTestId('ert-list').getByText('Issuer confirmed the refund policy was shown.').waitFor();
    await screenshot(page, 'cases-qc-review-case');

    // Approve after 'Confirm Approval': the next case loads.
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('qc-approve-dialog').getByRole('button', { name: 'Confirm Approval' }).click();
    expect(await resultText(page)).toContain(`Case ${first} was successfully approved. Loading next...`);
    await expect.poll(() => caseIdInUrl(page), { timeout: 20_000 }).not.toBe(first);
    const second = caseIdInUrl(page);
    expect(second).toBeGreaterThan(0);
    expect(await statusOf(first)).toBe(8);
    await expect.poll(() => markOf(second)).toMatchObject({ username: 'manager' });

    // Leaving the case view releases it.
    await page.getByTestId('back').click();
    await page.getByTestId('case-list-qc-review').waitFor();
    await expect.poll(() => markOf(second), { timeout: 10_000 }).toBeUndefined();

    // Emptied queue: the spec's message and a Back button.
    await db().query(`update cases.cases set status_id = 8 where tenant_id = 'acme' and status_id = 3`);
    await go(page, '/case-qc-review/view-case');
    await page.getByTestId('qc-error').getByText('No more cases for QC Review.').waitFor({ timeout: 20_000 });
    await page.getByTestId('back').waitFor();
    await screenshot(page, 'cases-qc-review-empty');
  });

  it('manager: admin review action with a note, assign control, case view', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/review');
    await page.getByTestId('case-list-admin-review').waitFor();
    await waitRows(page);
    const open = await api<{ data: { id: number; assigned_user: unknown; status_id: number }[] }>(
      '/cm/review?limit=50',
    );
    const c = open.data.find((r) => !r.assigned_user && r.status_id === 1)!;
    await page.getByLabel('Search cases').fill(String(c.id));
    await expect.poll(() => firstCell(page, 'id').textContent(), { timeout: 10_000 }).toBe(String(c.id));
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'cases-admin-review-list');

    // Action by id with a note.
    await openRowMenuItem(page, `Review actions for case ${c.id}`, 'Mark Reviewed');
    const dialog = page.getByTestId('review-action-dialog');
    await dialog.getByLabel('Note').fill('Checked by e2e');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    expect(await resultText(page)).toContain('The selected row(s) has been reviewed.');
    const reviewed = await api<{ reviews: { action: string; note: string }[] }>(`/cm/review/${c.id}`);
    expect(reviewed.reviews[0]).toMatchObject({ action: 'Mark Reviewed', note: 'Checked by e2e' });

    // The assign control (its own call).
    await page.getByRole('button', { name: `Assign case ${c.id}` }).click();
    const select = page.getByTestId('assign-user');
    await expect.poll(() => select.locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    await select.selectOption(
      (await select.locator('option', { hasText: '(agent)' }).getAttribute('value'))!,
    );
    await page.getByTestId('assign-dialog').getByRole('button', { name: 'Assign' }).click();
    expect(await resultText(page)).toContain('The case was successfully assigned!');
    expect(
      (await api<{ assigned_user: { username: string } }>(`/cm/cases/${c.id}`)).assigned_user.username,
    ).toBe('agent');

    // The case view shows the note and marks the case while open.
    await go(page, `/review/view-case/${c.id}`);
    await page.getByTestId('review-notes').getByText('Checked by e2e').waitFor({ timeout: 20_000 });
    await expect.poll(() => markOf(c.id)).toMatchObject({ username: 'manager', type: 'review' });
    await screenshot(page, 'cases-admin-review-case');
    await page.getByTestId('back').click();
    await expect.poll(() => markOf(c.id), { timeout: 10_000 }).toBeUndefined();
  });

  it('signing out with a case open releases it first (spec 1 §4.2)', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const open = await api<{ data: { id: number }[] }>('/cm/review?limit=5');
    const id = open.data[0]!.id;
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, `/review/view-case/${id}`);
    await expect
      .poll(() => markOf(id), { timeout: 20_000 })
      .toMatchObject({ username: 'manager', type: 'review' });
    await page.getByTestId('sign-out').click();
    await expect.poll(() => markOf(id), { timeout: 10_000 }).toBeUndefined();
    await page.getByRole('button', { name: 'Sign In' }).waitFor({ timeout: 20_000 });
  });

  it('manager: invalid chargebacks list (expired cases)', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/invalid-chargebacks');
    await page.getByText('Invalid Chargebacks').first().waitFor();
    await waitRows(page);
    const expired = await api<{ data: { id: number }[]; pagination: { total: number } }>(
      '/cm/cases?intent=chargebacks&status_id=5&limit=50',
    );
    // The total is shown a render after the first rows.
    await expect
      .poll(() => page.getByTestId('case-total').textContent())
      .toContain(expired.pagination.total.toLocaleString('en-US'));
    expect(await firstCell(page, 'id').textContent()).toBe(String(expired.data[0]!.id));
    await screenshot(page, 'cases-invalid-chargebacks');
  });
});
