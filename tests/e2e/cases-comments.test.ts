import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { actionResult, firstCell, resultText } from '../support/e2e-case-grid';
import {
  apiAs,
  gatewayCall,
  networkQuiet,
  openRowMenuItem,
  signedInPage,
  useWebWorld,
} from '../support/e2e-web';

/** Expandable case rows and the Add Comment dialog (spec 2 §2.1, §2.3) against the full stack. */
const world = useWebWorld();

interface CaseAnswer {
  id: number;
  case_no: string;
  order_id: string | null;
  reason_code: string;
  reason_code_message: string;
  comments: string | null;
}

/** The CB ID of the first row of the list on screen (the default tab). */
async function firstId(page: Page): Promise<number> {
  await firstCell(page, 'id').waitFor({ timeout: 20_000 });
  await networkQuiet(page);
  return Number(await firstCell(page, 'id').textContent());
}

/** Shows one case in the list (search by CB ID). */
async function showCase(page: Page, id: number) {
  await firstCell(page, 'id').waitFor({ timeout: 20_000 });
  await page.getByLabel('Search cases').fill(String(id));
  await expect.poll(() => firstCell(page, 'id').textContent(), { timeout: 10_000 }).toBe(String(id));
  await networkQuiet(page);
}

describe('case comments and expandable rows', () => {
  it('manager: expands a row by keyboard, adds a comment, sees it in the row and the history', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await signedInPage(world, 'acme', 'manager', '/case-management');
    await page.getByTestId('case-list-case-management').waitFor();
    const c = await api<CaseAnswer>(`/cm/cases/${await firstId(page)}`);
    await showCase(page, c.id);

    // Expand with the keyboard: the control is a button with aria-expanded.
    const expand = page.getByRole('button', { name: `Expand case ${c.id}` });
    await expand.focus();
    await page.keyboard.press('Enter');
    const detail = page.getByTestId(`case-detail-${c.id}`);
    await detail.waitFor();
    await expect
      .poll(() => page.getByRole('button', { name: `Collapse case ${c.id}` }).getAttribute('aria-expanded'))
      .toBe('true');
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain(c.reason_code_message);
    if (c.order_id) expect(text).toContain(c.order_id);
    for (const label of ['Card', 'Dispute Amount', 'Due Date', 'Assigned', 'Flag Comment', 'Latest Comments'])
      expect(text).toContain(label);

    // Add Comment from the row menu: the dialog of spec 2 §2.3.
    await openRowMenuItem(page, `Actions for case ${c.id}`, 'Add Comment');
    const dialog = page.getByTestId('comment-dialog');
    await dialog.getByText('Add Comment').waitFor();
    await dialog.getByText('Comment', { exact: true }).waitFor();
    await expect(dialog.getByRole('button', { name: 'Submit' }).isDisabled()).resolves.toBe(true);
    const comment = `Issuer called back ${Date.now()}`;
    await dialog.getByRole('textbox').fill(comment);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    expect(await resultText(page)).toContain('Your action was a success!');

    // The list refreshed; the row stays expanded and shows the new comment.
    await detail.getByText(comment).waitFor({ timeout: 10_000 });
    await screenshot(page, 'cases-expanded-row');
    expect((await api<CaseAnswer>(`/cm/cases/${c.id}`)).comments).toBe(comment);

    // Collapse again with the keyboard.
    await page.getByRole('button', { name: `Collapse case ${c.id}` }).press('Enter');
    await detail.waitFor({ state: 'detached' });

    // The history shows the comment.
    await page.getByRole('button', { name: 'Case Menu' }).first().click();
    await page.getByRole('menuitem', { name: 'Case History' }).click();
    const history = page.getByTestId('history-dialog');
    await history.getByText(`Comment added: ${comment}`).waitFor();
    await history.getByRole('button', { name: 'Close History' }).click();
  });

  it('data-grid list (chargebacks-new): rows expand too; a failed comment shows the error notice', async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const list = await api<{ data: CaseAnswer[] }>('/cm/cases?intent=chargebacks&limit=3');
    const c = list.data[1]!;
    const { page } = await signedInPage(world, 'acme', 'manager', '/chargebacks-new');
    await showCase(page, c.id);
    await page.getByRole('button', { name: `Expand case ${c.id}` }).click();
    await page.getByTestId(`case-detail-${c.id}`).getByText(c.reason_code_message).waitFor();

    // The call fails: the error notice of spec 2 §8 (server text or the generic one).
    await page.route('**/api/cm/cases/*/comments', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500}' })
        : route.continue(),
    );
    await openRowMenuItem(page, `Actions for case ${c.id}`, 'Add Comment');
    const dialog = page.getByTestId('comment-dialog');
    await dialog.getByRole('textbox').fill('will fail');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    const result = await actionResult(page);
    expect(result.ok).toBe(false);
    expect(result.text).toContain('An error occurred. Please try again later.');
  });

  it('read-only user: rows expand, no Add Comment, and the gateway refuses the call', async () => {
    const api = await apiAs(world, 'acme', 'readonly');
    const { page } = await signedInPage(world, 'acme', 'readonly', '/case-management');
    const c = await api<CaseAnswer>(`/cm/cases/${await firstId(page)}`);
    await page.getByRole('button', { name: `Expand case ${c.id}` }).click();
    await page.getByTestId(`case-detail-${c.id}`).waitFor();
    await expect(page.getByRole('button', { name: /Actions for case/ }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Case Menu' }).first().click();
    await expect(page.getByRole('menuitem', { name: 'Add Comment' }).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');

    const signin = await gatewayCall(world, 'acme', '/api/users/auth/signin', {
      method: 'POST',
      body: { username: 'readonly', password: DEMO_PASSWORD },
    });
    const token = (signin.json as { access_token: string }).access_token;
    const r = await gatewayCall(world, 'acme', `/api/cm/cases/${c.id}/comments`, {
      method: 'POST',
      body: { comment: 'not allowed' },
      token,
    });
    expect(r.status).toBe(403);
  });
});
