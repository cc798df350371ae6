import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { SAML_DEMO_IDP_CERT_FILE } from '@portal/contracts';
import { readSamlTenant, type SamlTenant } from './config';
import { ensureDemoSamlIdpKey, SAML_DEMO_IDP_SUBJECT, selfSignedCertificate } from './demo-idp-key';
import { verifyResponse } from './provider';
import { checkSamlTrustAtStart, SamlTrustError, trustedCertificates } from './trust';
import { buildSamlResponse } from './test-idp';

const ROOT = join(import.meta.dirname, '../../../../..');
const SHIPPED = join(ROOT, 'config/tenants');
const FIXTURE_CERT = readFileSync(join(ROOT, 'tests/integration/saml/fixtures/test-idp.crt'), 'utf8');
const temp: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temp.push(dir);
  return dir;
};
afterAll(() => temp.forEach((d) => rmSync(d, { recursive: true, force: true })));

const log = () => ({ warn: vi.fn(), error: vi.fn() });
const tenantWith = (certs: SamlTenant['saml']['idp_certs']): SamlTenant => ({
  tenant: 'acme',
  file: 'config/tenants/acme.yaml',
  domains: ['acme.localhost'],
  saml: {
    idp_entity_id: 'https://idp.example.com',
    idp_sso_url: 'https://idp.example.com/sso',
    idp_certs: certs,
    sp_entity_id: 'https://acme.localhost/saml/sp',
    password_login: 'shown',
  },
});
/** A copy of the shipped tenant files with acme trusting these certificates. */
function tenantDirWith(certs: unknown[]): string {
  const dir = tempDir('saml-trust-tenants-');
  cpSync(SHIPPED, dir, { recursive: true });
  const file = join(dir, 'acme.yaml');
  const config = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  config.saml = { ...tenantWith([]).saml, idp_certs: certs };
  writeFileSync(file, stringify(config));
  return dir;
}

describe('the demo IdP key', () => {
  it('is generated once into DATA_DIR with a self-signed certificate marked test-only', () => {
    const dataDir = tempDir('saml-demo-');
    const first = ensureDemoSamlIdpKey(dataDir);
    expect(first.created).toBe(true);
    expect(first.certFile).toBe(join(dataDir, SAML_DEMO_IDP_CERT_FILE));
    const cert = new X509Certificate(first.certPem);
    expect(cert.subject).toBe(`CN=${SAML_DEMO_IDP_SUBJECT}`);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.ca).toBe(false);
    const again = ensureDemoSamlIdpKey(dataDir);
    expect(again).toMatchObject({
      created: false,
      certPem: first.certPem,
      privateKeyPem: first.privateKeyPem,
    });
    // A key replaced by hand gets a certificate of its own.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(first.keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const replaced = ensureDemoSamlIdpKey(dataDir);
    expect(replaced.created).toBe(true);
    expect(new X509Certificate(replaced.certPem).checkPrivateKey(privateKey)).toBe(true);
  });

  it('signs what the shipped northbank tenant then trusts (by file, from DATA_DIR)', async () => {
    const dataDir = tempDir('saml-demo-');
    const northbank = readSamlTenant(SHIPPED, 'northbank')!;
    expect(northbank.saml.idp_certs).toEqual([{ file: SAML_DEMO_IDP_CERT_FILE }]);
    // Before the key exists there is nothing to trust.
    expect(() => trustedCertificates(northbank, { dataDir, production: false })).toThrow(
      /tenant 'northbank': .*northbank\.yaml: saml\.idp_certs\[0\]: certificate file .* does not exist/,
    );
    const demo = ensureDemoSamlIdpKey(dataDir);
    const certs = trustedCertificates(northbank, { dataDir, production: false });
    expect(certs).toEqual([demo.certPem]);
    const acs = 'http://northbank.localhost/api/users/auth/saml/acs';
    const response = buildSamlResponse({
      privateKeyPem: demo.privateKeyPem,
      certPem: demo.certPem,
      issuer: northbank.saml.idp_entity_id,
      audience: northbank.saml.sp_entity_id,
      acsUrl: acs,
      inResponseTo: '_request',
      nameId: 'federated',
    });
    await expect(verifyResponse(northbank.saml, certs, acs, response)).resolves.toMatchObject({
      nameId: 'federated',
      inResponseTo: '_request',
    });
  });
});

describe('trusted certificates', () => {
  it('reads inline certificates and files under DATA_DIR; refuses what is not a certificate', () => {
    const dataDir = tempDir('saml-trust-');
    writeFileSync(join(dataDir, 'idp.crt'), FIXTURE_CERT);
    const o = { dataDir, production: false };
    expect(trustedCertificates(tenantWith([FIXTURE_CERT, { file: 'idp.crt' }]), o)).toEqual([
      FIXTURE_CERT,
      FIXTURE_CERT,
    ]);
    writeFileSync(
      join(dataDir, 'junk.crt'),
      '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n',
    );
    const error = (() => {
      try {
        trustedCertificates(tenantWith([{ file: 'junk.crt' }]), o);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SamlTrustError);
    expect((error as SamlTrustError).kind).toBe('invalid');
  });

  it('in production refuses a key of the repository and a test-only certificate, naming the tenant', () => {
    const dataDir = tempDir('saml-trust-');
    const production = { dataDir, production: true };
    expect(() => trustedCertificates(tenantWith([FIXTURE_CERT]), production)).toThrow(
      "tenant 'acme': config/tenants/acme.yaml: saml.idp_certs[0]: a production IdP certificate must not be trusted: its private key is committed to the repository (tests/integration/saml/fixtures/test-idp.key)",
    );
    // A new certificate for a committed key is the same key.
    const fixtureKey = readFileSync(join(ROOT, 'tests/integration/saml/fixtures/test-idp.key'), 'utf8');
    const renamed = selfSignedCertificate(createPrivateKey(fixtureKey), 'idp.acme.example');
    expect(() => trustedCertificates(tenantWith([renamed]), production)).toThrow(
      /committed to the repository/,
    );
    const demo = ensureDemoSamlIdpKey(dataDir);
    expect(() => trustedCertificates(tenantWith([{ file: SAML_DEMO_IDP_CERT_FILE }]), production)).toThrow(
      /marks it as test-only \(CN=Chargeback Portal demo SAML IdP \(test only\)\)/,
    );
    expect(
      trustedCertificates(tenantWith([{ file: SAML_DEMO_IDP_CERT_FILE }]), { dataDir, production: false }),
    ).toEqual([demo.certPem]);
    // A real IdP's certificate passes.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const real = selfSignedCertificate(privateKey, 'idp.acme.example');
    expect(trustedCertificates(tenantWith([real]), production)).toEqual([real]);
  });
});

describe('the start-up check', () => {
  it('stops a production start that trusts a repository key, naming the tenant and file', () => {
    const dir = tenantDirWith([FIXTURE_CERT]);
    const l = log();
    expect(() =>
      checkSamlTrustAtStart(dir, { dataDir: tempDir('saml-start-'), production: true }, l),
    ).toThrow(
      new RegExp(
        `^Refusing to start: a tenant trusts a SAML certificate it must not \\(NODE_ENV=production\\):\\n  - tenant 'acme': ${join(dir, 'acme.yaml')}: saml\\.idp_certs\\[0\\]: .*test-idp\\.key\\)$`,
      ),
    );
    // Outside production the same files start (tests bring their fixture IdPs).
    expect(() =>
      checkSamlTrustAtStart(dir, { dataDir: tempDir('saml-start-'), production: false }, l),
    ).not.toThrow();
  });

  it('starts production with the shipped files: the demo tenant’s SAML stays off without its generated key', () => {
    const l = log();
    const dataDir = tempDir('saml-start-');
    checkSamlTrustAtStart(SHIPPED, { dataDir, production: true }, l);
    expect(l.warn).toHaveBeenCalledWith(
      expect.objectContaining({ tenant: 'northbank', problem: expect.stringMatching(/does not exist/) }),
      'SAML is off for this tenant',
    );
    // A data directory copied from a demo into production: the demo certificate is refused at start.
    ensureDemoSamlIdpKey(dataDir);
    expect(() => checkSamlTrustAtStart(SHIPPED, { dataDir, production: true }, log())).toThrow(
      /tenant 'northbank': .*northbank\.yaml: saml\.idp_certs\[0\]: .*marks it as test-only/,
    );
  });
});
