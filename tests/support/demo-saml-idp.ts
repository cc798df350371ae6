/**
 * The demo identity provider of the northbank tenant (config/tenants/northbank.yaml `saml`):
 *   npx tsx tests/support/demo-saml-idp.ts
 * then open http://northbank.localhost:8080 and choose 'Sign in with SSO'; the IdP asks for a
 * username (the demo user `federated`). Signs with the test key of tests/integration/saml/fixtures:
 * for demos and tests only, never for a real tenant.
 */
import { startTestIdp } from './saml-idp';

const idp = await startTestIdp({
  issuer: 'https://idp.northbank.localhost/demo',
  audience: 'https://northbank.localhost/saml/sp',
  port: 8090,
  host: 'localhost',
});
console.log(`demo SAML IdP at ${idp.url}/sso (Ctrl-C stops it)`);
