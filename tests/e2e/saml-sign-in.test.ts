import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { startWebWorld, type WebWorld } from '../support/e2e-web';
import { startTestIdp, TEST_IDP_CERT } from '../support/saml-idp';

/**
 * SAML sign-in in Chromium against the full stack, with a tiny identity
 * provider served by the test: it reads the AuthnRequest, signs a response
 * for the demo user `federated` with the test IdP key and auto-posts it to
 * the ACS URL the request named. The test IdP's fixture certificate is trusted
 * only in this test's own copy of the tenant files: no shipped file trusts a
 * committed key (tests/static/shipped-trust.test.ts).
 */
const IDP_ENTITY = 'https://idp.e2e.test/metadata';
const SP_ENTITY = 'https://acme.localhost/saml/sp';

let idp: Awaited<ReturnType<typeof startTestIdp>>;
let world: WebWorld;

beforeAll(async () => {
  idp = await startTestIdp({ issuer: IDP_ENTITY, audience: SP_ENTITY, nameId: 'federated' });
  const saml = {
    idp_entity_id: IDP_ENTITY,
    idp_sso_url: `${idp.url}/sso`,
    idp_certs: [TEST_IDP_CERT()],
    sp_entity_id: SP_ENTITY,
    password_login: 'backdoor',
    logout_url: `${idp.url}/logout`,
  };
  world = await startWebWorld({}, (tenant, yaml) =>
    tenant === 'acme' ? `${yaml}\nsaml: ${JSON.stringify(saml)}\n` : yaml,
  );
});
afterAll(async () => {
  await world?.close();
  await idp?.close();
});

describe('SAML sign-in in the browser', () => {
  it('shows only "Sign in with SSO", signs in through the IdP and lands on the page asked for', async () => {
    const { context, page } = await world.newPage();
    await page.goto(world.url('acme', '/chargebacks'));
    await page.getByTestId('sign-in-form').waitFor();
    await expect(page.getByRole('button', { name: 'Sign in with SSO' }).isVisible()).resolves.toBe(true);
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await screenshot(page, 'saml-sign-in');
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await page.getByTestId('top-bar').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/chargebacks');
    // A federated user: no Sign Out, no Profile (spec 1 §2.4).
    expect(await page.getByTestId('top-bar').innerText()).not.toContain('Sign Out');
    await screenshot(page, 'saml-signed-in');
    // The session survives a reload (refresh cookie set by the code exchange).
    await page.reload();
    await page.getByTestId('top-bar').waitFor({ timeout: 30_000 });
    await context.close();
  });

  it('the back-door flag shows the password form beside the SSO button', async () => {
    const { context, page } = await world.newPage();
    await page.goto(world.url('acme', '/?backdoor=1'));
    await page.getByTestId('sign-in-form').waitFor();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign in with SSO' }).count()).toBe(1);
    await screenshot(page, 'saml-backdoor');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('Chargeback#2026');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByTestId('top-bar').waitFor({ timeout: 30_000 });
    await context.close();
  });

  it('a refused response lands on the sign-in page with a readable message', async () => {
    const { context, page } = await world.newPage();
    await page.goto(world.url('acme', '/saml/callback?error=no_user'));
    await page.getByTestId('sign-in-error').waitFor();
    expect(await page.getByTestId('sign-in-error').innerText()).toContain(
      'No account matches your single sign-on identity.',
    );
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });
});
