/**
 * Public keys whose private key is committed to this repository (test
 * fixtures): SHA-256, hex, of each key's DER SubjectPublicKeyInfo, so every
 * certificate ever made for one of these keys is caught, not only the
 * committed one. A production start refuses a tenant that trusts any of them
 * (trust.ts). tests/static/shipped-trust.test.ts derives the public key of
 * every private key and certificate under a fixtures folder that git tracks,
 * and fails when one is missing here: add a line when you commit a test key.
 */
export const REPOSITORY_KEYS: Readonly<Record<string, string>> = {
  '6d6b64b362a4b9d32ae8e5b6436c978e544282dd0c20f55ca0c1f5c4a958e2ef':
    'tests/integration/saml/fixtures/test-idp.key',
  '08edf6409491c29174d0e73509d47daa5afe41e406aa046692b3282dc02fd508':
    'tests/integration/saml/fixtures/other-idp.key',
};
