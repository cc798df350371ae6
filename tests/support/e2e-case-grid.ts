import type { Page } from 'playwright-core';
import { signedInPage, type TenantId, type WebWorld } from './e2e-web';

/** The case lists in the browser tests: the grid of the list on screen, its first row, the result dialog. */

export const caseGrid = (page: Page) => page.getByTestId('case-grid');

/** A cell of the grid's first row, by column id. */
export const firstCell = (page: Page, col: string) =>
  caseGrid(page).locator(`.ag-row[row-index="0"] [col-id="${col}"]`).first();

/** Waits until the grid shows its first row. */
export const waitRows = (page: Page) => firstCell(page, 'id').waitFor({ timeout: 20_000 });

/** Signs a user in on a case list's page and waits for that list (data-testid case-list-<list>) and its first row. */
export async function openCaseList(
  world: WebWorld,
  tenant: TenantId,
  username: string,
  path: string,
  list: string,
) {
  const opened = await signedInPage(world, tenant, username, path);
  await opened.page.getByTestId(`case-list-${list}`).waitFor();
  await waitRows(opened.page);
  return opened;
}

/**
 * What the result dialog of an action said, once it has closed itself. The dialog closes after 2 s,
 * so it is found and read in one step inside the page: a wait and then a separate read can start
 * the read after the dialog closed on a busy machine.
 */
export async function actionResult(page: Page, timeout = 20_000): Promise<{ ok: boolean; text: string }> {
  const shown = await page.waitForFunction(
    () => {
      const d = document.querySelector('[data-testid="result-dialog"]');
      return d && { ok: d.getAttribute('data-ok') === 'true', text: d.textContent ?? '' };
    },
    undefined,
    { timeout },
  );
  const result = (await shown.jsonValue())!;
  await page.getByTestId('result-dialog').waitFor({ state: 'detached', timeout: 5_000 });
  return result;
}

/** The text of the result dialog of an action, once it has closed itself. */
export const resultText = async (page: Page, timeout?: number) => (await actionResult(page, timeout)).text;

/** A case's status id, read from the database (what the UI did, checked behind it). */
export async function caseStatus(world: WebWorld, id: number): Promise<number> {
  const { rows } = await world.t.db.query<{ status_id: number }>(
    `select status_id from cases.cases where id = $1`,
    [id],
  );
  return Number(rows[0]!.status_id);
}
