/// <reference lib="dom" />
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoMerchantId, demoTenant, demoUserId, DOWNLOAD_MESSAGES } from '@portal/contracts';
import { newObjectKey, openObjectStore, resolveDocsLinkSecret } from '@portal/storage';
import { screenshot } from '../support/browser';
import { caseStatus } from '../support/e2e-case-grid';
import { goInApp, networkQuiet, signInToShell, useWebWorld, type TenantId } from '../support/e2e-web';
import { callGateway, signInThroughGateway, type GatewayAnswer } from '../support/gateway-client';
import { makePdf, postForm, type UploadLink } from '../support/representment-upload';
import { expectInert, IMG, JS, polyglotPdf, SVG, watchContext, type XssWatch } from '../support/e2e-xss';

/**
 * Issue 27 part H: stored XSS does not execute. The payloads are stored
 * through the gateway (signed-in users, the calls the web app and the feeds
 * make; the onboarding uploader's name, which no call writes, in the
 * database) in every free-text field a screen renders, in both tenants; then
 * one signed-in context per tenant (partner.admin, who reaches every screen)
 * opens each screen. On every one the payloads are text: nothing ran
 * (`window.__x`, recorded by a trap), no element was built from them, no CSP
 * violation was reported and no dialog opened. The page CSP alone blocks
 * inline handlers, so `window.__x` would stay unset even if markup were
 * built: the DOM check and the CSP reports are what catch that.
 */
const world = useWebWorld(
  // The webhook endpoint is a loopback address (refused unless allow-listed, as an operator would).
  { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
  // northbank shows the embedded alerts page by default (ALERTS_IFRAME); the grid is what renders stored alerts.
  (tenant, yaml) =>
    tenant === 'northbank' ? yaml.replace('ALERTS_IFRAME: true', 'ALERTS_IFRAME: false') : yaml,
  // The job worker compiles the uploaded evidence (the polyglot test).
  { worker: { pollingIntervalSeconds: 0.5 } },
);

const SHOTS = '/tmp/stored-xss-shots';
const TENANTS: TenantId[] = ['acme', 'northbank'];

interface Caller {
  raw(method: string, path: string, body?: unknown): Promise<GatewayAnswer>;
  ok<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

async function caller(tenant: TenantId, username: string): Promise<Caller> {
  const token = await signInThroughGateway(world.stack.gatewayUrl, tenant, username);
  const raw = (method: string, path: string, body?: unknown) =>
    callGateway(world.stack.gatewayUrl, tenant, method, `/api${path}`, { token, body });
  return {
    raw,
    ok: async <T>(method: string, path: string, body?: unknown) => {
      const r = await raw(method, path, body);
      if (r.status >= 300)
        throw new Error(`${tenant}/${username} ${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json as T;
    },
  };
}

/** Upload link, then the form post (as the web app does); answers the stored key. */
async function upload(
  tenant: TenantId,
  who: Caller,
  linkPath: string,
  bytes: Buffer,
  name: string,
  type: string,
) {
  const link = await who.ok<UploadLink>('GET', linkPath);
  const posted = await postForm(world.stack.gatewayUrl, tenant, link, bytes, name, type);
  if (posted.status >= 300) throw new Error(`form post ${posted.status}: ${posted.body}`);
  return link.fields.key!;
}

const userId = (tenant: TenantId, username: string) =>
  demoUserId(
    demoTenant(tenant),
    DEMO_USERS.find((u) => u.username === username)!,
  );

interface Seeded {
  merchantId: number;
  mid: string;
  caseId: number;
  onboardingId: number;
  alertId: number;
}
const seeded = new Map<TenantId, Seeded>();

const ONBOARDING_HEADER =
  'Business Name,DBA,Alias,Service Level,Country,Partner Company ID,Business address,City,State,Zip,Business phone,First name,Last name,Email,Username,Phone';

async function seed(tenant: TenantId): Promise<Seeded> {
  const T = demoTenant(tenant);
  const run = `${T.number}${Date.now().toString(36)}`;
  const today = new Date().toISOString().slice(0, 10);
  const admin = await caller(tenant, 'admin');
  const partner = await caller(tenant, 'partner.admin');

  // Users: first and last names (users grids, 'shared by' of a saved view, top bar).
  await admin.ok('PATCH', `/users/users/${userId(tenant, 'partner.user')}`, { fname: IMG, lname: SVG });
  await admin.ok('PATCH', `/users/users/${userId(tenant, 'merchant.user')}`, { fname: SVG, lname: JS });
  // The viewer too: the top bar shows their name.
  await admin.ok('PATCH', `/users/users/${userId(tenant, 'partner.admin')}`, { fname: JS, lname: IMG });

  // Merchant: name, alias, address fields, contact (hierarchy tree and details, case and ERT lists, onboarding).
  const merchant = await partner.ok<{ id: number }>('POST', '/cm/merchants', {
    business_name: IMG,
    alias: SVG,
    parent_id: demoMerchantId(T, 'partnerA'),
    partner_company_id: JS,
    business_address: IMG,
    city: SVG,
    state: 'TX',
    zip: '73301',
    country: 'US',
    business_phone: JS,
    contact: { fname: SVG, lname: IMG, email: `xss.${run}@example.com`, phone_number: JS },
  });
  const { rows: processors } = await world.t.db.query<{ id: number }>(
    'select id from cases.processors order by id limit 1',
  );
  const mid = `XSS${run}`.slice(0, 20);
  const created = await partner.ok<{ data: { id: number } }>('POST', '/cm/mids', {
    mid,
    alias: SVG,
    descriptor: IMG,
    merchant_id: merchant.id,
    processor_id: Number(processors[0]!.id),
    service_level_id: 1,
  });

  // A chargeback from the feed on that MID: case number, order id, ARN.
  const { rows: reasons } = await world.t.db.query<{ id: number }>(
    'select id from cases.reason_codes where card_type_id = 1 order by id limit 1',
  );
  const imported = await admin.ok<{ id: number }>('POST', '/cm/cases/import', {
    source_id: 4,
    source_case_id: `XSS-${run}`,
    mid_id: created.data.id,
    case_no: SVG,
    cycle_id: 1,
    reason_code_id: Number(reasons[0]!.id),
    date_post: today,
    date_due: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
    dispute_amt: 42.5,
    dispute_currency_id: 1,
    order_id: IMG,
    arn: JS,
  });
  const caseId = imported.id;
  for (const comment of [IMG, SVG, JS]) await partner.ok('POST', `/cm/cases/${caseId}/comments`, { comment });
  await partner.ok('PUT', '/cm/cases/flag', { flags: [{ case_id: caseId, is_flagged: true, comment: SVG }] });

  // Saved views: own (cases, alerts) and one shared by partner.user, whose name is a payload too.
  await partner.ok('POST', '/users/saved-views', {
    list: 'cases',
    path: '/case-management',
    name: IMG,
    query: `search=${encodeURIComponent(SVG)}`,
    shared: true,
  });
  await partner.ok('POST', '/users/saved-views', { list: 'alerts', path: '/alerts', name: JS, query: '' });
  const partnerUser = await caller(tenant, 'partner.user');
  await partnerUser.ok('POST', '/users/saved-views', {
    list: 'cases',
    path: '/case-management',
    name: SVG,
    query: '',
    shared: true,
  });

  // A template of partner.admin's own merchant: name and file name.
  const partnerA = demoMerchantId(T, 'partnerA');
  const pdf = Buffer.from(await makePdf(1));
  const key = await upload(
    tenant,
    partner,
    `/docs/templates/upload-link?merchant_id=${partnerA}&filename=file&content_type=application%2Fpdf`,
    pdf,
    'file.pdf',
    'application/pdf',
  );
  await partner.ok('POST', '/docs/templates', {
    merchant_id: partnerA,
    s3_key: key,
    name: IMG,
    file_name: `${SVG}.pdf`,
    content_type: 'application/pdf',
    size: pdf.length,
    template_type: 1,
    document_type_id: 9,
    mid_ids: [],
  });

  // Webhook: description, and a URL that carries a payload (a javascript: URL is refused).
  for (const url of [JS, 'javascript://127.0.0.1/%0awindow.__x=1', `data:text/html,${IMG}`]) {
    const refused = await partner.raw('POST', '/users/webhooks', {
      url,
      events: ['CASE_VERDICT_CHANGED'],
      description: SVG,
    });
    expect(refused.status, `${url}: ${JSON.stringify(refused.json)}`).toBe(400);
  }
  await partner.ok('POST', '/users/webhooks', {
    url: `http://127.0.0.1:9/${SVG}?next=${JS}`,
    events: ['CASE_VERDICT_CHANGED'],
    description: IMG,
  });

  // Onboarding: a CSV whose cells are payloads (service level and country are echoed in their errors).
  const cells: Record<string, string> = {
    'Business Name': IMG,
    DBA: SVG,
    Alias: JS,
    'Service Level': SVG,
    Country: IMG,
    'Partner Company ID': JS,
    'Business address': IMG,
    City: SVG,
    State: 'TX',
    Zip: '73301',
    'Business phone': JS,
    'First name': IMG,
    'Last name': SVG,
    Email: `xss.${run}@example.com`,
    Username: `xss.${run}`,
  };
  const csv = [
    ONBOARDING_HEADER,
    ONBOARDING_HEADER.split(',')
      .map((h) => cells[h] ?? '')
      .join(','),
  ].join('\r\n');
  const onbKey = await upload(
    tenant,
    partner,
    '/cm/onboarding/upload?filename=xss.csv',
    Buffer.from(csv),
    'xss.csv',
    'text/csv',
  );
  const onboarding = await partner.ok<{ id: number }>('POST', '/cm/onboarding', {
    s3_key: onbKey,
    type: 'merchant',
    merchant_id: merchant.id,
  });
  // The uploader's name on the history row: no API call writes it (the list falls back to the username).
  await world.t.db.query('update cases.onboarding_files set user_fname = $1, user_lname = $2 where id = $3', [
    IMG,
    SVG,
    onboarding.id,
  ]);

  // ERTs on the imported case.
  for (const content of [IMG, SVG]) await admin.ok('POST', `/ert/case/${caseId}/erts`, { content });

  // An alert from the feed (descriptor, order id) on a self-service merchant, marked with a customer name.
  const A1 = demoMerchantId(T, 'merchantA1');
  const alert = await admin.ok<{ id: number }>('POST', '/cm/alerts', {
    source_id: 1,
    source_alert_id: `XSS-${run}`,
    merchant_id: A1,
    descriptor: SVG,
    order_id: IMG,
    trans_amount: 19.99,
    currency_id: 1,
    trans_date: today,
    card_type_id: 1,
    expiration_date: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  });
  const { rows: outcomes } = await world.t.db.query<{ id: number }>(
    `select id from cases.alert_outcomes where kind = 'refund' order by id limit 1`,
  );
  await partner.ok('POST', '/cm/svc/alerts/outcome', {
    alert_id: alert.id,
    outcome_id: Number(outcomes[0]!.id),
    refund_id: SVG,
    order_id: IMG,
    customer_name: IMG,
  });

  return { merchantId: merchant.id, mid, caseId, onboardingId: onboarding.id, alertId: alert.id };
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  copyFileSync(await screenshot(page, name), `${SHOTS}/${name}.png`);
}

/** Opens a route in the app (no reload) and waits for its calls to settle. */
async function open(page: Page, path: string) {
  await goInApp(page, path);
  await networkQuiet(page);
}

describe('stored XSS (issue 27 H)', () => {
  beforeAll(async () => {
    for (const tenant of TENANTS) seeded.set(tenant, await seed(tenant));
  }, 120_000);

  it.each(TENANTS)(
    '%s: every screen shows the stored payloads as text',
    async (tenant) => {
      const s = seeded.get(tenant)!;
      const { context, page } = await world.newPage();
      const watch = await watchContext(context);
      try {
        await signInToShell(
          page,
          world,
          tenant,
          'partner.admin',
          undefined,
          `/case-management?search=${s.caseId}`,
        );
        const inert = (screen: string, texts: string[] = [], scope?: Locator) =>
          expectInert(page, watch, `${tenant} ${screen}`, texts, scope);

        // Top bar: the signed-in user's name.
        expect(await page.getByTestId('user-name').textContent()).toBe(`${JS} ${IMG}`);
        await inert('top bar', [`${JS} ${IMG}`], page.getByTestId('top-bar'));

        // Case list: the row, its expanded detail with the comments, the case history.
        await page.getByTestId('case-list-case-management').waitFor();
        const row = page.getByTestId('case-grid').locator(`.ag-row[row-id="${s.caseId}"]`).first();
        await row.waitFor();
        await networkQuiet(page);
        await inert('case list', [SVG]);
        await page.getByRole('button', { name: `Expand case ${s.caseId}` }).click();
        const detail = page.getByTestId(`case-detail-${s.caseId}`);
        await detail.getByTestId('case-detail-comment').nth(2).waitFor();
        const detailText = (await detail.textContent()) ?? '';
        for (const p of [IMG, SVG, JS]) expect(detailText).toContain(p);
        await inert('case list, expanded row', [IMG, JS]);
        if (tenant === 'acme') await shot(page, 'stored-xss-case-row');
        await page
          .getByTestId(`row-actions-${s.caseId}`)
          .getByRole('button', { name: 'Case Menu' })
          .press('Enter');
        await page
          .getByTestId(`case-menu-${s.caseId}`)
          .getByRole('menuitem', { name: 'Case History' })
          .click();
        const history = page.getByTestId('history-dialog');
        await history.getByText(`Comment added: ${JS}`).waitFor();
        await inert('case history', [`Comment added: ${JS}`], history);
        await history.getByRole('button', { name: 'Close History' }).click();

        // Tools > Print: the one page the app writes as an HTML string (document.write of an about:blank window).
        const [popup] = await Promise.all([
          context.waitForEvent('page'),
          (async () => {
            await page.getByTestId('tools-menu').click();
            await page.getByRole('menuitem', { name: 'Print', exact: true }).click();
          })(),
        ]);
        await popup.locator('table tbody tr').first().waitFor();
        const printed = (await popup.locator('tbody').textContent()) ?? '';
        expect(printed).toContain(SVG);
        await expectInert(popup, watch, `${tenant} print window`, [SVG], popup.locator('body'));
        await popup.close();

        // Views menu: own views and the one partner.user shared (with the owner's name).
        await page.getByTestId('views-menu').click();
        const menu = page.getByTestId('views-menu-content');
        await menu.waitFor();
        await inert('views menu', [IMG, SVG, `shared by ${IMG} ${SVG}`], menu);
        await page.keyboard.press('Escape');

        // Merchant hierarchy: the branch of the new merchant, its details, its MID, its edit form.
        await open(page, `/merchant-hierarchy?mids_tile_clicked=${s.merchantId}`);
        const node = page.locator(`[data-testid="tree-node"][data-id="${s.merchantId}"]`);
        await node.getByTestId('tree-merchant').click();
        const details = page.getByTestId('merchant-details');
        await details.locator('[data-field="Merchant Name"]').waitFor();
        await inert('merchant details', [IMG, SVG, JS]);
        expect(await details.locator('[data-field="Merchant Name"]').textContent()).toBe(IMG);
        const midRow = page.locator(`[data-testid="tree-mid"][data-mid="${s.mid}"]`);
        await midRow.waitFor();
        expect(await midRow.textContent()).toContain(`(${SVG})`);
        await midRow.click();
        const midDetails = page.getByTestId('mid-details');
        await midDetails.locator('[data-field="Alias"]').waitFor();
        await inert('MID details', [SVG]);
        expect(await midDetails.locator('[data-field="Alias"]').textContent()).toBe(SVG);
        if (tenant === 'acme') await shot(page, 'stored-xss-merchant-hierarchy');
        await node.getByTestId('tree-merchant').click();
        await page.getByRole('button', { name: 'Edit', exact: true }).click();
        const form = page.getByTestId('merchant-form');
        await expect.poll(() => form.locator('input[name="merchantBusinessName"]').inputValue()).toBe(IMG);
        expect(await form.locator('input[name="merchantAlias"]').inputValue()).toBe(SVG);
        await inert('merchant edit form');

        // Users: both grids.
        for (const path of ['/users', '/users-new']) {
          await open(page, `${path}?search=.user`);
          await inert(`users ${path}`, [`${IMG} ${SVG}`, `${SVG} ${JS}`]);
        }

        // Templates library, classic and grid.
        for (const path of ['/template-library', '/template-library-new']) {
          await open(page, path);
          await inert(`templates ${path}`, [IMG, `${SVG}.pdf`]);
        }

        // Webhooks: the endpoint and its deliveries heading.
        await open(page, '/webhooks');
        const endpoints = page.getByTestId('webhook-endpoints');
        await endpoints.locator('tbody tr').first().click();
        await page.getByTestId('webhook-deliveries').waitFor();
        await inert('webhooks', [IMG, 'http://127.0.0.1:9/%3Csvg']);

        // Onboarding: the history row (merchant name), then the file's cells and their errors.
        await open(page, '/onboarding');
        const file = page.getByTestId(`onboarding-file-${s.onboardingId}`);
        await file.waitFor();
        await inert('onboarding history', [IMG, `${IMG} ${SVG}`]);
        await file.getByRole('button', { name: 'Edit' }).click();
        await page.getByTestId('onboarding-edit').waitFor();
        await page.getByTestId('failing-cells').waitFor();
        await inert('onboarding edit', [`'${SVG}'`, `'${IMG}'`]);
        const values = await page
          .getByTestId('onboarding-records')
          .locator('input')
          .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
        for (const p of [IMG, SVG, JS]) expect(values).toContain(p);
        if (tenant === 'acme') await shot(page, 'stored-xss-onboarding-edit');

        // ERT records of the case.
        await open(page, '/ert');
        await page.getByLabel('Search ERTs').fill(String(s.caseId));
        await page.getByLabel('Search ERTs').press('Enter');
        const ertGrid = page.getByTestId('ert-grid');
        await ertGrid.locator('.ag-row').first().waitFor();
        await inert('ERT', [IMG, SVG]);

        // Alerts grid (all merchants), then merchantA1 (self service) in the merchant switcher, which lists
        // the new merchant by name, for Mark Outcome and its stored customer name.
        await open(page, '/alerts');
        await page.getByTestId('alerts-search').fill(String(s.alertId));
        const alerts = page.getByTestId('alerts-grid');
        await alerts.locator(`.ag-row`).first().waitFor();
        await inert('alerts grid', [IMG, SVG]);
        const switcher = page.getByTestId('merchant-switcher').locator('select');
        await expect.poll(() => switcher.locator('option').allTextContents()).toContain(IMG);
        await switcher.selectOption(String(demoMerchantId(demoTenant(tenant), 'merchantA1')));
        await expect.poll(() => page.getByTestId('alerts-service-level').textContent()).toBe('Self Service');
        await inert('merchant switcher');
        // The row clicked must be of the merchant's list, not the one on screen while it loads (seen
        // once on a loaded machine: the dialog opened without the stored outcome).
        await networkQuiet(page);
        await page.getByTestId(`mark-${s.alertId}`).click();
        const mark = page.getByTestId('mark-outcome-dialog');
        await expect
          .poll(() => mark.locator('input[name="customer_name"]').inputValue(), {
            message: 'Mark Outcome opens with the stored refund details',
            timeout: 15_000,
          })
          .toBe(IMG);
        await inert('Mark Outcome dialog');
        if (tenant === 'acme') await shot(page, 'stored-xss-alert-outcome');
      } finally {
        await context.close();
      }
    },
    180_000,
  );
});

/** The headers that keep a stored file from ever being a page of the portal's origin. */
function expectAttachmentHeaders(r: GatewayAnswer, what: string, contentType: string) {
  const h = (name: string) => r.headers.get(name) ?? '';
  expect({ what, status: r.status, type: h('content-type') }).toEqual({
    what,
    status: 200,
    type: contentType,
  });
  expect(h('x-content-type-options'), what).toBe('nosniff');
  expect(h('content-disposition'), what).toMatch(/^attachment;/);
  const csp = h('content-security-policy');
  expect(csp, what).toMatch(/(^|;)\s*sandbox(;|$)/);
  expect(csp, what).toMatch(/default-src 'none'/);
}

/**
 * Opens a link in a fresh tab of the context: it must be a download (the tab
 * stays on about:blank, never a page of the portal's origin) and nothing runs.
 */
async function openAsDownload(context: BrowserContext, watch: XssWatch, url: string, what: string) {
  const page = await context.newPage();
  try {
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      page.goto(url).catch(() => null),
    ]);
    expect(page.url(), what).toBe('about:blank');
    await expectInert(page, watch, what);
    return readFileSync((await download.path())!);
  } finally {
    await page.close();
  }
}

describe('a PDF that is also an HTML page, uploaded as evidence (issue 27 H)', () => {
  it('is accepted as a PDF or refused; every way back serves it as an attachment that runs nothing', async () => {
    const tenant: TenantId = 'acme';
    const bytes = await polyglotPdf();
    expect(bytes.subarray(0, 60).toString('latin1')).toMatch(
      /^%PDF-1\.4\n<html><script>window\.__x=1<\/script>/,
    );
    expect((await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount()).toBe(1);
    const A1 = demoMerchantId(demoTenant(tenant), 'merchantA1');
    const { rows } = await world.t.db.query<{ id: string }>(
      `select id from cases.cases where tenant_id = $1 and merchant_id = $2 and status_id = 1 order by id limit 2`,
      [tenant, A1],
    );
    const caseId = Number(rows[0]!.id);
    const manager = await caller(tenant, 'manager');

    // Another case's evidence: a plain PDF whose file name and upload comment are payloads (the QC view shows both).
    const namedCase = Number(rows[1]!.id);
    const plain = Buffer.from(await makePdf(1));
    const plainKey = await upload(
      tenant,
      manager,
      `/docs/representment/upload-link?case_id=${namedCase}&filename=named.pdf&content_type=application%2Fpdf`,
      plain,
      'named.pdf',
      'application/pdf',
    );
    const named = await manager.raw('POST', '/docs/representment', {
      case_id: namedCase,
      origin: 2,
      files: [
        { s3_key: plainKey, filename: `${IMG}.pdf`, content_type: 'application/pdf', size: plain.length },
      ],
      templates: [],
      qc_review: true,
      is_reupload: false,
      comment: SVG,
    });
    expect(named.status, JSON.stringify(named.json)).toBeLessThan(300);
    const key = await upload(
      tenant,
      manager,
      `/docs/representment/upload-link?case_id=${caseId}&filename=evidence.pdf&content_type=application%2Fpdf`,
      bytes,
      'evidence.pdf',
      'application/pdf',
    );
    const posted = await manager.raw('POST', '/docs/representment', {
      case_id: caseId,
      origin: 2,
      files: [{ s3_key: key, filename: 'evidence.pdf', content_type: 'application/pdf', size: bytes.length }],
      templates: [],
      qc_review: true,
      is_reupload: false,
    });
    const accepted = posted.status < 300;
    if (!accepted) expect(posted.status).toBe(400);

    const { context, page } = await world.newPage();
    const watch = await watchContext(context);
    const store = await openObjectStore(world.t.env, world.t.deps.log, {
      linkSecret: resolveDocsLinkSecret(world.t.env),
    });
    try {
      if (accepted) {
        // Compiled and waiting in the QC queue (DocUploaded).
        await expect.poll(() => caseStatus(world, caseId), { timeout: 60_000 }).toBe(3);
        // The compiled document's link, as the API answers it.
        const doc = await manager.ok<{ link: string; filename: string }>(
          'GET',
          `/docs/representment/${caseId}`,
        );
        expectAttachmentHeaders(
          await callGateway(world.stack.gatewayUrl, tenant, 'GET', doc.link),
          'compiled document link',
          'application/pdf',
        );
        // The QC view's document link: a download attribute, and a click downloads without running anything.
        await signInToShell(page, world, tenant, 'manager', undefined, `/case-qc-review/view-case/${caseId}`);
        const link = page.getByTestId('representment-link');
        await link.waitFor({ timeout: 20_000 });
        expect(await link.getAttribute('download')).toBe(doc.filename);
        expect(await link.getAttribute('href')).toMatch(/^\/api\/docs\/objects\/download\?/);
        const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
        expect(download.suggestedFilename()).toBe(doc.filename);
        await expectInert(page, watch, 'QC view after the document link');
        await shot(page, 'stored-xss-polyglot-qc-view');
        const compiled = await openAsDownload(
          context,
          watch,
          world.url(tenant, doc.link),
          'compiled link opened',
        );
        expect(compiled.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      } else {
        await signInToShell(page, world, tenant, 'manager');
      }

      // The QC view of the other case: its document's file name and the upload comment, as text.
      await expect.poll(() => caseStatus(world, namedCase), { timeout: 60_000 }).toBe(3);
      await goInApp(page, `/case-qc-review/view-case/${namedCase}`);
      await page.getByTestId('representment-link').waitFor({ timeout: 20_000 });
      await expectInert(page, watch, 'QC view with a payload file name and comment', [`${IMG}.pdf`, SVG]);

      // The stored upload itself, by a link signed as the docs service signs them (no route hands one out).
      if (await store.head(tenant, key)) {
        const raw = await store.downloadLink(tenant, key, { filename: 'evidence.pdf' });
        expectAttachmentHeaders(
          await callGateway(world.stack.gatewayUrl, tenant, 'GET', raw),
          'stored upload link',
          'application/pdf',
        );
        expect(await openAsDownload(context, watch, world.url(tenant, raw), 'stored upload opened')).toEqual(
          bytes,
        );
      }

      // /download?loc=: a representment key is not a downloadable area; a stored file that is (an export),
      // even one labelled text/html, is downloaded as an attachment and runs nothing.
      await goInApp(page, `/download?loc=${encodeURIComponent(key)}`);
      await page.getByTestId('download-error').waitFor();
      expect(await page.getByTestId('download-error').textContent()).toBe(DOWNLOAD_MESSAGES.invalidUrl);
      await expectInert(page, watch, '/download of a representment key');
      for (const type of ['application/pdf', 'text/html']) {
        const exportKey = newObjectKey(
          tenant,
          'exports',
          type === 'text/html' ? 'report.html' : 'report.pdf',
        );
        await store.put(tenant, exportKey, bytes, { contentType: type });
        const answer = await manager.ok<{ url: string }>(
          'GET',
          `/docs/downloadable?loc=${encodeURIComponent(exportKey)}`,
        );
        expectAttachmentHeaders(
          await callGateway(world.stack.gatewayUrl, tenant, 'GET', answer.url),
          `/download link (${type})`,
          type,
        );
        const downloaded = page.waitForEvent('download');
        await goInApp(page, `/download?loc=${encodeURIComponent(exportKey)}`);
        expect((await downloaded).suggestedFilename()).toMatch(/^report\.(html|pdf)$/);
        await page.getByTestId('download-done').waitFor();
        await expectInert(page, watch, `/download (${type})`);
        await openAsDownload(
          context,
          watch,
          world.url(tenant, answer.url),
          `/download link opened (${type})`,
        );
      }

      // A seeded representment (served by /docs/files/*, not the object store).
      const { rows: seededDocs } = await world.t.db.query<{ case_id: string }>(
        `select r.case_id from docs.representments r
          where r.tenant_id = $1 and not r.is_archived
            and not exists (select 1 from docs.representment_versions v where v.case_id = r.case_id)
          order by r.id limit 1`,
        [tenant],
      );
      const seededDoc = await manager.ok<{ link: string; content_type: string }>(
        'GET',
        `/docs/representment/${seededDocs[0]!.case_id}`,
      );
      expect(seededDoc.link).toMatch(/^\/api\/docs\/files\//);
      expectAttachmentHeaders(
        await callGateway(world.stack.gatewayUrl, tenant, 'GET', seededDoc.link),
        'seeded document link',
        seededDoc.content_type,
      );
      await openAsDownload(context, watch, world.url(tenant, seededDoc.link), 'seeded document opened');
    } finally {
      await store.close();
      await context.close();
    }
  }, 150_000);
});
