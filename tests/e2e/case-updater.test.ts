/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { signInToShell, useWebWorld } from '../support/e2e-web';

/** Issue 17: a manager runs a case updater file and downloads the per-row result. */
const world = useWebWorld({}, undefined, { worker: { pollingIntervalSeconds: 0.5 } });

describe('case updater', () => {
  it('uploads a CSV and shows the finished upload with its result file', async () => {
    const c = (
      await world.t.db.query<{ id: string; verdict_id: number }>(
        `select id, verdict_id from cases.cases where tenant_id = 'acme' order by id limit 1`,
      )
    ).rows[0]!;
    const verdict = c.verdict_id === 4 ? 'Loss' : 'Win';
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'manager', undefined, '/case-updater');
      await page.getByTestId('case-updater').waitFor();
      await page.getByRole('button', { name: 'Upload CSV' }).click();
      const dialog = page.getByTestId('updater-upload-dialog');
      await dialog.getByTestId('csv-file-input').setInputFiles({
        name: 'a.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('x'),
      });
      await dialog.getByText('Only a single CSV file is allowed.').waitFor();
      await dialog.getByTestId('csv-file-input').setInputFiles({
        name: 'cases.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`ID,Verdict\n${c.id},${verdict}\n42,Maybe\n`),
      });
      await dialog.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('CSV successfully uploaded.').first().waitFor();
      const table = page.getByTestId('updater-uploads');
      await expect
        .poll(() => table.textContent(), { timeout: 30_000 })
        .toMatch(/Complete.*1 of 2 row\(s\) updated\./);
      const href = await table.getByRole('link', { name: 'Download' }).first().getAttribute('href');
      // Fetched by the browser (Node does not resolve *.localhost).
      const result = await page.evaluate(async (url) => {
        const r = await fetch(url);
        return { status: r.status, text: await r.text() };
      }, href!);
      expect(result.status).toBe(200);
      const lines = result.text.trim().split('\r\n');
      expect(lines[0]).toBe('Line,ID,Verdict,Outcome');
      expect(lines.slice(1)).toEqual([`2,${c.id},${verdict},Updated`, '3,42,Maybe,Unknown verdict']);
      const after = await world.t.db.query<{ verdict_id: number }>(
        'select verdict_id from cases.cases where id = $1',
        [c.id],
      );
      expect(after.rows[0]!.verdict_id).toBe(verdict === 'Win' ? 4 : 5);
      await screenshot(page, 'h17-case-updater');
    } finally {
      await context.close();
    }
  }, 120_000);
});
