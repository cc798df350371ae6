/// <reference lib="dom" />
import { copyFileSync, mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { signInToShell, useWebWorld } from '../support/e2e-web';

/**
 * Issue 15: a partner admin walks the Merchant Hierarchy screen against the
 * full stack: adds a merchant under its own, adds a MID to it (opening the
 * merchant's node in the lazy tree reads its MID), edits the MID
 * and reads the change in MID History, switches on the Verifi RDR deflector,
 * saves an RDR rule and uploads a MID CSV (a bad row first).
 */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const ACME = demoTenant('acme');
const world = useWebWorld();

describe('merchant hierarchy', () => {
  it('adds and edits a merchant, adds and edits a MID, shows its history, saves an RDR rule and uploads MIDs', async () => {
    const { context, page } = await world.newPage();
    const name = `E2E Merchant ${Date.now().toString(36)}`;
    const mid = `E2E${Date.now().toString().slice(-8)}`;
    try {
      await signInToShell(page, world, 'acme', 'partner.admin', undefined, '/merchant-hierarchy');
      await page.getByTestId('tree-root').waitFor();

      // Add Merchant under the partner's own merchant (the root of its tree).
      await page.getByRole('button', { name: 'Add Merchant' }).click();
      const form = page.getByTestId('merchant-form');
      await form.waitFor();
      expect(await form.locator('input[name="merchantParentName"]').inputValue()).not.toBe('');
      const submit = form.getByRole('button', { name: 'Submit' });
      expect(await submit.isDisabled()).toBe(true);
      await form.locator('input[name="merchantBusinessName"]').fill(name);
      await form.locator('input[name="merchantBusinessName"]').fill('');
      await form.getByText('Field required!').first().waitFor();
      await form.locator('input[name="merchantBusinessName"]').fill(name);
      await form.locator('input[name="businessAddress"]').fill('1 Test Way');
      await form.locator('input[name="businessCity"]').fill('Austin');
      await form.locator('select[name="businessCountry"]').selectOption({ label: 'United States' });
      await form.locator('input[name="businessRegionOrState"]').fill('TX');
      await form.locator('input[name="businessZipCode"]').fill('73301');
      await form.locator('input[name="businessPhone"]').fill('555-0111');
      await submit.click();
      await page.getByText('Merchant successfully added!').waitFor();
      const { rows } = await world.t.db.query<{ id: number; parent_id: number; service_level_id: number }>(
        `select id, parent_id, service_level_id from cases.merchants where tenant_id = 'acme' and business_name = $1`,
        [name],
      );
      expect(rows[0]).toMatchObject({ parent_id: demoMerchantId(ACME, 'partnerA'), service_level_id: 1 });

      // Select the new merchant and edit it (Submit only once something changed).
      await page.getByTestId('tree-merchant').filter({ hasText: name }).click();
      await page.getByText('Merchant Details').first().waitFor();
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const editForm = page.getByTestId('merchant-form');
      await poll(() => editForm.locator('input[name="businessCity"]').inputValue()).toBe('Austin');
      expect(await editForm.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
      await editForm.locator('input[name="businessCity"]').fill('Dallas');
      await editForm.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Merchant successfully updated!').waitFor();
      const city = await world.t.db.query(`select city from cases.merchants where business_name = $1`, [
        name,
      ]);
      expect(city.rows).toEqual([{ city: 'Dallas' }]);

      // Add a MID to it.
      await page.getByRole('button', { name: 'Add MID' }).click();
      const midForm = page.getByTestId('mid-form');
      await midForm.waitFor();
      await midForm.locator('input[name="mid"]').fill(mid);
      await midForm.locator('input[name="alias"]').fill('E2E Alias');
      await midForm.locator('input[name="descriptor"]').fill('E2E*SHOP');
      await poll(() => midForm.locator('select[name="processor_id"] option').count()).toBeGreaterThan(1);
      await midForm.locator('select[name="processor_id"]').selectOption({ label: 'TSYS' });
      await midForm.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('MID successfully added!').waitFor();
      const details = page.getByTestId('mid-details');
      await details.waitFor();
      await poll(() => details.locator('[data-field="MID"]').textContent()).toBe(mid);
      expect(await details.locator('[data-field="Status"]').textContent()).toBe('Active');

      // The tree reads a node's MIDs when it opens: the new merchant shows its MID once expanded.
      const node = page.getByTestId('tree-node').filter({ hasText: name });
      await node.getByRole('button', { name: `Expand ${name}` }).click();
      await page
        .getByTestId('merchant-tree')
        .locator(`[data-testid="tree-mid"][data-mid="${mid}"]`)
        .waitFor();
      mkdirSync('/tmp/shots', { recursive: true });
      copyFileSync(
        await screenshot(page, 'merchant-admin-tree-open'),
        '/tmp/shots/merchant-admin-tree-open.png',
      );
      await node.getByRole('button', { name: `Collapse ${name}` }).click();
      await poll(() => page.locator(`[data-testid="tree-mid"][data-mid="${mid}"]`).count()).toBe(0);

      // Edit the MID: new alias and descriptor.
      await details.getByRole('button', { name: 'Edit MID' }).click();
      const edit = page.getByTestId('mid-form');
      await edit.waitFor();
      await edit.locator('input[name="alias"]').fill('E2E Alias Renamed');
      await edit.locator('input[name="descriptor"]').fill('E2E*SHOP2');
      await edit.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('MID successfully updated!').waitFor();
      await poll(() => details.locator('[data-field="Alias"]').textContent()).toBe('E2E Alias Renamed');

      // MID History lists both changes with the user.
      await details.getByRole('button', { name: 'MID History' }).click();
      const history = page.getByTestId('mid-history-dialog');
      await history.waitFor();
      await poll(() => history.getByTestId('mid-history-row').count()).toBe(2);
      const text = await history.textContent();
      expect(text).toContain('partner.admin');
      expect(text).toContain('E2E Alias Renamed');
      expect(text).toContain('E2E*SHOP2');
      const shot = await screenshot(page, 'merchant-admin-history');
      mkdirSync('/tmp/shots', { recursive: true });
      copyFileSync(shot, '/tmp/shots/merchant-admin-history.png');
      await history.getByRole('button', { name: 'Close History' }).click();
      await poll(() => history.count()).toBe(0);
      copyFileSync(
        await screenshot(page, 'merchant-admin-hierarchy'),
        '/tmp/shots/merchant-admin-hierarchy.png',
      );

      // Switch on the Verifi RDR deflector (Pending Activation), then save an RDR rule.
      await details.getByRole('button', { name: 'Edit MID' }).click();
      const again = page.getByTestId('mid-form');
      await again.waitFor();
      await again.getByText('Visa RDR').click();
      await again.getByRole('button', { name: 'Submit' }).click();
      await details.getByText('Visa RDR: Pending Activation').waitFor();
      await details.getByRole('button', { name: 'Edit RDR' }).click();
      const rdr = page.getByTestId('rdr-rule-modal');
      await rdr.getByText('Add Criteria for RDR to automatically refund a transaction.').waitFor();
      await rdr.getByRole('button', { name: 'Add Condition' }).click();
      const saveRule = rdr.getByRole('button', { name: 'Save Rule' });
      expect(await saveRule.isDisabled()).toBe(true);
      const row = rdr.getByTestId('rdr-row').first();
      await row.getByLabel('Attribute').selectOption({ label: 'Transaction Amount' });
      await row.getByLabel('Operator').selectOption({ label: 'LessThan' });
      await row.getByLabel('Value').fill('-5');
      expect(await saveRule.isDisabled()).toBe(true);
      await row.getByLabel('Value').fill('1,250.00');
      await saveRule.click();
      await rdr.getByText('Successfully updated Verifi RDR rules.').waitFor();
      await poll(() => rdr.count()).toBe(0);
      const saved = await world.t.db.query(
        `select r.subject_id, r.operator_id, r.value from cases.rdr_rules r join cases.mids m on m.id = r.mid_id where m.mid = $1`,
        [mid],
      );
      expect(saved.rows).toEqual([{ subject_id: 3, operator_id: 4, value: '1,250.00' }]);

      // Bulk upload: a bad row is named and nothing is written; then a good file.
      await page.getByTestId('tree-merchant').filter({ hasText: name }).click();
      await page.getByRole('button', { name: 'Upload MIDs' }).click();
      const up = page.getByTestId('mid-upload-dialog');
      const header = 'mid,alias,descriptor,platform,service_level_id,mcc,caid,wpg_merchant_code';
      const [u1, u2] = [`${mid}1`, `${mid}2`];
      await up.getByLabel('MID CSV file').setInputFiles({
        name: 'mids.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`${header}\n${u1},One,UP*1,First Data,1,,,\n${u2},Two,UP*2,Nowhere,1,,,\n`),
      });
      await up.getByRole('button', { name: 'Upload' }).click();
      await up.getByText('Row 3: platform: Unknown platform Nowhere.').waitFor();
      await up.getByLabel('MID CSV file').setInputFiles({
        name: 'mids.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`${header}\n${u1},One,UP*1,First Data,1,,,\n${u2},Two,UP*2,TSYS,1,,,\n`),
      });
      await up.getByRole('button', { name: 'Upload' }).click();
      await up.getByText('MIDs successfully uploaded.').waitFor();
      const uploaded = await world.t.db.query(
        `select mid from cases.mids where mid = any($1::text[]) order by mid`,
        [[u1, u2]],
      );
      expect(uploaded.rows).toEqual([{ mid: u1 }, { mid: u2 }]);
      copyFileSync(await screenshot(page, 'merchant-admin-upload'), '/tmp/shots/merchant-admin-upload.png');
    } finally {
      await context.close();
    }
  }, 180_000);
});
