/**
 * The demo identity provider of the northbank tenant (config/tenants/northbank.yaml `saml`):
 *   npx tsx tests/support/demo-saml-idp.ts
 * then open http://northbank.localhost:8080 and choose 'Sign in with SSO'; the IdP asks for a
 * username (the demo user `federated`). It signs with the demo key in DATA_DIR (default `.data`):
 * `keys/saml-demo-idp.key`, whose certificate `keys/saml-demo-idp.crt` the northbank tenant trusts.
 * The user service generates the pair at start outside production; this script does when it runs
 * first. No key of the repository is trusted by a shipped tenant file.
 */
import { ensureDemoSamlIdpKey } from '../../services/user/src/auth/saml/demo-idp-key';
import { startTestIdp } from './saml-idp';

const dataDir = process.env.DATA_DIR || '.data';
const demo = ensureDemoSamlIdpKey(dataDir);
const idp = await startTestIdp({
  issuer: 'https://idp.northbank.localhost/demo',
  audience: 'https://northbank.localhost/saml/sp',
  port: 8090,
  host: 'localhost',
  key: demo.privateKeyPem,
  cert: demo.certPem,
});
console.log(`demo SAML IdP at ${idp.url}/sso, signing with ${demo.keyFile} (Ctrl-C stops it)`);
