/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import {
  caseGrid,
  caseStatus,
  firstCell,
  openCaseList,
  resultText,
  waitRows,
} from '../support/e2e-case-grid';
import {
  apiAs,
  gatewayCall,
  goInApp,
  networkQuiet,
  openRowMenuItem,
  signedInPage,
  useWebWorld,
} from '../support/e2e-web';

/** QC review, admin review and the invalid chargebacks list against the full stack (spec 2 §2.4, §2.5). */
const world = useWebWorld();

const db = () => world.t.db;

const caseIdInUrl = (page: Page) => Number(/view-case\/(\d+)/.exec(page.url())?.[1] ?? NaN);
const markOf = async (id: number) =>
  (
    await db().query<{ username: string; type: string }>(
      `select username, type from cases.case_marks where case_id = $1`,
      [id],
    )
  ).rows[0];
const statusOf = (id: number) => caseStatus(world, id);

/** The acme QC queue's cases in the order the server hands them out (due date, id), free of marks. */
const freeQcCases = async () =>
  (
    await db().query<{ id: number }>(
      `select c.id from cases.cases c left join cases.case_marks k on k.case_id = c.id
       where c.tenant_id = 'acme' and c.status_id = 3 and k.case_id is null order by c.date_due, c.id`,
    )
  ).rows.map((r) => Number(r.id));
const checkRow = (page: Page, id: number) =>
  caseGrid(page).locator(`.ag-row[row-id="${id}"] .ag-selection-checkbox input`).first();

describe('QC review: Do Not Represent and the representment document (agent)', () => {
  it('agent: the document opens from the case, DNR moves the case and loads the next one', async () => {
    const { page } = await signedInPage(world, 'acme', 'agent', '/case-qc-review/view-case');
    await page.getByTestId('qc-case').waitFor({ timeout: 20_000 });
    await expect.poll(() => caseIdInUrl(page)).toBeGreaterThan(0);
    const first = caseIdInUrl(page);
    await expect.poll(() => markOf(first)).toMatchObject({ username: 'agent', type: 'qc-review' });

    // The representment: link, uploader and case comments; the link serves the PDF without a token.
    const doc = (
      await db().query<{ filename: string; case_comments: string | null }>(
        `select filename, case_comments from docs.representments where case_id = $1 order by id desc limit 1`,
        [first],
      )
    ).rows[0]!;
    const link = page.getByTestId('representment-link');
    await link.waitFor();
    expect(await link.textContent()).toBe(doc.filename);
    expect(await page.getByTestId('representment-comments').textContent()).toContain(
      doc.case_comments ?? 'None',
    );
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/docs\/files\/.+\.pdf\?exp=\d+&sig=/);
    // An attachment (issue 20 item 10): the click downloads the file under its name.
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(file.suggestedFilename()).toBe(doc.filename);
    expect(file.url()).toContain('/api/docs/files/');
    // The same link fetched without the app's bearer token, as the new tab does.
    const pdf = await page.evaluate(async (url) => {
      const r = await fetch(url, { credentials: 'omit' });
      const bytes = new Uint8Array(await r.arrayBuffer());
      return {
        status: r.status,
        type: r.headers.get('content-type'),
        head: String.fromCharCode(...bytes.slice(0, 5)),
      };
    }, href);
    expect(pdf).toEqual({ status: 200, type: 'application/pdf', head: '%PDF-' });
    await screenshot(page, 'cases-qc-review-document');

    // Do Not Represent (acme has the flag on): confirm, the spec's text, the next case.
    await page.getByRole('button', { name: 'Do Not Represent' }).click();
    const confirm = page.getByRole('dialog');
    await confirm
      .getByText(
        'You are about to move this case to do not represent and mark as a loss, would you like to proceed?',
      )
      .waitFor();
    await screenshot(page, 'cases-qc-review-dnr-confirm');
    await confirm.getByRole('button', { name: 'Continue', exact: true }).click();
    expect(await resultText(page)).toContain(
      `Case ${first} was successfully moved to Do Not Represent. Loading next...`,
    );
    await expect.poll(() => caseIdInUrl(page), { timeout: 20_000 }).not.toBe(first);
    const second = caseIdInUrl(page);
    expect(await statusOf(first)).toBe(4);
    const verdict = await db().query<{ verdict_id: number }>(
      `select verdict_id from cases.cases where id = $1`,
      [first],
    );
    expect(Number(verdict.rows[0]!.verdict_id)).toBe(5);

    // Another reviewer takes the case meanwhile: the server refuses, the spec's error text shows.
    await db().query(
      `update cases.case_marks set username = 'manager', user_id = $2, marked_at = now() where case_id = $1`,
      [second, 1_000_002],
    );
    await page.getByRole('button', { name: 'Do Not Represent' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue', exact: true }).click();
    expect(await resultText(page)).toContain(
      'An error occurred processing this request. Please try again later.',
    );
    expect(await statusOf(second)).toBe(3);
    await db().query(`delete from cases.case_marks where case_id = $1`, [second]);
  });

  it('northbank (flag off): no Do Not Represent button, and the server refuses the call', async () => {
    const { page } = await signedInPage(world, 'northbank', 'agent', '/case-qc-review/view-case');
    await page.getByTestId('qc-case').waitFor({ timeout: 20_000 });
    await expect.poll(() => caseIdInUrl(page)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await expect(page.getByRole('button', { name: 'Do Not Represent' }).count()).resolves.toBe(0);
    const login = await gatewayCall(world, 'northbank', '/api/users/auth/signin', {
      method: 'POST',
      body: { username: 'agent', password: 'Chargeback#2026' },
    });
    const r = await gatewayCall(world, 'northbank', '/api/cm/cases/qc/dnr', {
      method: 'PATCH',
      body: { id: caseIdInUrl(page) },
      token: login.json.access_token as string,
    });
    expect(r.status).toBe(403);
    expect(await statusOf(caseIdInUrl(page))).toBe(3);
  });

  it('the document panel: archived and failing documents show the spec texts, a missing one "No document yet"', async () => {
    const [archived] = await freeQcCases();
    await db().query(
      `update docs.representments set is_archived = true, archived_at = now() where case_id = $1`,
      [archived],
    );
    const { rows } = await db().query<{ id: number }>(
      `select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 1`,
    );
    const none = Number(rows[0]!.id);
    const { page } = await signedInPage(world, 'acme', 'manager', `/review/view-case/${archived}`);
    await page.getByTestId('representment-error').getByText('The document has been archived.').waitFor();
    await screenshot(page, 'cases-review-document-archived');
    // A case with no document yet (the docs service answers 404): neutral, not an error (issue 29).
    await goInApp(page, `/review/view-case/${none}`);
    await page.getByTestId('representment-none').getByText('No document yet', { exact: true }).waitFor();
    expect(await page.getByTestId('representment-error').count()).toBe(0);
    await screenshot(page, 'cases-review-document-none');
    // A real failure keeps the spec's error text.
    await page.route(`**/api/docs/representment/${archived}`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'boom' }),
      }),
    );
    await goInApp(page, `/review/view-case/${archived}`);
    await page
      .getByTestId('representment-error')
      .getByText('An error occurred retrieving document for this case.')
      .waitFor();
  });
});

describe('admin review bulk actions (agent)', () => {
  it('agent: nothing selected, then an action with a note and a bulk assign on two New cases', async () => {
    const api = await apiAs(world, 'acme', 'agent');
    const { page } = await openCaseList(world, 'acme', 'agent', '/review', 'admin-review');

    // Nothing selected: the spec's notice.
    await page.getByTestId('bulk-menu').click();
    await page.getByRole('menuitem', { name: 'Mark Reviewed', exact: true }).click();
    await page.getByText('You must select at least one case.').first().waitFor();
    await expect(page.getByTestId('review-action-dialog').count()).resolves.toBe(0);

    const list = await api<{ data: { id: number; status_id: number; assigned_user: unknown }[] }>(
      '/cm/review?limit=12',
    );
    const picked = list.data
      .filter((r) => r.status_id === 1)
      .slice(0, 2)
      .map((r) => r.id);
    expect(picked).toHaveLength(2);
    for (const id of picked) await checkRow(page, id).check();
    await expect.poll(() => page.getByTestId('bulk-menu').textContent()).toBe('Bulk Actions (2)');
    await screenshot(page, 'cases-admin-review-bulk-selected');

    await page.getByTestId('bulk-menu').click();
    await page.getByRole('menuitem', { name: 'Mark Reviewed', exact: true }).click();
    const dialog = page.getByTestId('review-action-dialog');
    await dialog.getByText('2 cases selected.').waitFor();
    await dialog.getByLabel('Note').fill('Bulk note from e2e');
    await screenshot(page, 'cases-admin-review-bulk-action');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    expect(await resultText(page)).toContain('The selected row(s) has been reviewed.');
    for (const id of picked) {
      const c = await api<{ reviews: { action: string; note: string; username: string }[] }>(
        `/cm/review/${id}`,
      );
      expect(c.reviews[0]).toMatchObject({
        action: 'Mark Reviewed',
        note: 'Bulk note from e2e',
        username: 'agent',
      });
    }
    // The write cleared the selection.
    await expect.poll(() => page.getByTestId('bulk-menu').textContent()).toBe('Bulk Actions');

    // Bulk assign, admin review variant (PATCH /cm/review with assign_id).
    for (const id of picked) await checkRow(page, id).check();
    await page.getByTestId('bulk-menu').click();
    await page.getByRole('menuitem', { name: 'Bulk Assign', exact: true }).click();
    const assign = page.getByTestId('assign-dialog');
    await assign.getByText('Bulk Assign Cases').waitFor();
    const select = page.getByTestId('assign-user');
    await expect.poll(() => select.locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    await select.selectOption(
      (await select.locator('option', { hasText: '(manager)' }).getAttribute('value'))!,
    );
    await assign.getByRole('button', { name: 'Assign', exact: true }).click();
    expect(await resultText(page)).toContain('The selected cases were successfully assigned!');
    for (const id of picked) {
      const c = await api<{ assigned_user: { username: string } | null }>(`/cm/cases/${id}`);
      expect(c.assigned_user?.username).toBe('manager');
    }
  });
});

describe('who reaches the review screens', () => {
  for (const username of ['partner.admin', 'partner.user', 'merchant.user'])
    it(`${username}: no menu entries, the routes are not found, the server answers 403`, async () => {
      const { page } = await signedInPage(world, 'acme', username);
      await page.getByTestId('sidebar').waitFor();
      await page.getByTestId('menu-chargebacks').first().waitFor({ state: 'attached' });
      await expect(page.getByTestId('menu-case-qc-review').count()).resolves.toBe(0);
      await expect(page.getByTestId('menu-review').count()).resolves.toBe(0);
      for (const path of ['/case-qc-review', '/case-qc-review/view-case', '/review', '/review/view-case/1']) {
        await goInApp(page, path);
        await page.getByTestId('not-found').waitFor();
      }
      const login = await gatewayCall(world, 'acme', '/api/users/auth/signin', {
        method: 'POST',
        body: { username, password: 'Chargeback#2026' },
      });
      const token = login.json.access_token as string;
      for (const path of ['/api/cm/cases/qc?limit=5', '/api/cm/cases/qc/next', '/api/cm/review?limit=5'])
        expect((await gatewayCall(world, 'acme', path, { token })).status, path).toBe(403);
      const w = await gatewayCall(world, 'acme', '/api/cm/review', {
        method: 'PATCH',
        token,
        body: { cases: [{ id: 1, action_id: 1 }] },
      });
      expect(w.status).toBe(403);
    });

  it('read-only staff user: every review action disabled or absent; the server refuses the writes', async () => {
    // No demo staff user is read-only: the acme admin becomes one before its first sign-in.
    await db().query(
      `update users.users set is_read_only = true where username = 'admin' and tenant = 'acme'`,
    );
    const { page } = await signedInPage(world, 'acme', 'admin', '/case-qc-review/view-case');
    await page.getByTestId('qc-case').waitFor({ timeout: 20_000 });
    await expect.poll(() => caseIdInUrl(page)).toBeGreaterThan(0);
    const qcId = caseIdInUrl(page);
    await expect(page.getByRole('button', { name: 'Approve' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Do Not Represent' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Add ERT' }).count()).resolves.toBe(0);
    await page.getByTestId('representment-panel').waitFor();
    await screenshot(page, 'cases-qc-review-read-only');
    expect(await markOf(qcId)).toBeUndefined();

    await goInApp(page, '/review');
    await page.getByTestId('case-list-admin-review').waitFor();
    await waitRows(page);
    await expect(page.getByTestId('bulk-menu').count()).resolves.toBe(0);
    await expect(caseGrid(page).locator('.ag-selection-checkbox').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /^Review actions for case/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /^(Assign|Change) case/ }).count()).resolves.toBe(0);
    await goInApp(page, `/review/view-case/${qcId}`);
    await page.getByTestId('review-case').waitFor();
    await expect(page.getByRole('button', { name: 'Review Action' }).count()).resolves.toBe(0);

    const login = await gatewayCall(world, 'acme', '/api/users/auth/signin', {
      method: 'POST',
      body: { username: 'admin', password: 'Chargeback#2026' },
    });
    const token = login.json.access_token as string;
    const writes: Array<[string, unknown]> = [
      ['/api/cm/cases/qc', { id: qcId, action_id: 1 }],
      ['/api/cm/cases/qc/dnr', { id: qcId }],
      ['/api/cm/review', { cases: [{ id: qcId, action_id: 1, note: 'x' }] }],
      ['/api/cm/review', { cases: [{ id: qcId, assign_id: null }] }],
    ];
    for (const [path, body] of writes) {
      const r = await gatewayCall(world, 'acme', path, { method: 'PATCH', token, body });
      expect(r.status, path).toBe(403);
    }
    expect(await statusOf(qcId)).toBe(3);
  });
});

describe('QC and admin review', () => {
  it('manager: QC review end to end (queue, open marks, Add ERT, approve, next, release, empty queue)', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await openCaseList(world, 'acme', 'manager', '/case-qc-review', 'qc-review');
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
    await goInApp(page, '/case-qc-review/view-case');
    await page.getByTestId('qc-error').getByText('No more cases for QC Review.').waitFor({ timeout: 20_000 });
    await page.getByTestId('back').waitFor();
    await screenshot(page, 'cases-qc-review-empty');
  });

  it('manager: admin review action with a note, assign control, case view', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await openCaseList(world, 'acme', 'manager', '/review', 'admin-review');
    const open = await api<{ data: { id: number; assigned_user: unknown; status_id: number }[] }>(
      '/cm/review?limit=50',
    );
    const c = open.data.find((r) => !r.assigned_user && r.status_id === 1)!;
    await page.getByLabel('Search cases').fill(String(c.id));
    await expect.poll(() => firstCell(page, 'id').textContent(), { timeout: 10_000 }).toBe(String(c.id));
    await networkQuiet(page);
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
    await page.getByRole('button', { name: new RegExp(`^(Assign|Change) case ${c.id}$`) }).click();
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
    await goInApp(page, `/review/view-case/${c.id}`);
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
    const { page } = await signedInPage(world, 'acme', 'manager', `/review/view-case/${id}`);
    await expect
      .poll(() => markOf(id), { timeout: 20_000 })
      .toMatchObject({ username: 'manager', type: 'review' });
    await page.getByTestId('sign-out').click();
    await expect.poll(() => markOf(id), { timeout: 10_000 }).toBeUndefined();
    await page.getByRole('button', { name: 'Sign In' }).waitFor({ timeout: 20_000 });
  });

  it('manager: invalid chargebacks list (expired cases)', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await signedInPage(world, 'acme', 'manager', '/invalid-chargebacks');
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
