import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { parse, stringify } from 'yaml';
import type { FastifyInstance } from 'fastify';
import { buildSamlResponse, type TestResponseOptions } from '../../../services/user/src/auth/saml/test-idp';

/** The test identity providers: keys and certificates generated for these tests only. */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
export const TEST_IDP = { key: fixture('test-idp.key'), cert: fixture('test-idp.crt') };
export const OTHER_IDP = { key: fixture('other-idp.key'), cert: fixture('other-idp.crt') };

export const ACME_SAML = {
  idp_entity_id: 'https://idp.acme.test/metadata',
  idp_sso_url: 'https://idp.acme.test/sso',
  idp_certs: [TEST_IDP.cert],
  sp_entity_id: 'https://acme.localhost/saml/sp',
  password_login: 'backdoor',
  logout_url: 'https://idp.acme.test/logout',
};
export const NORTHBANK_SAML = {
  idp_entity_id: 'https://idp.northbank.test/metadata',
  idp_sso_url: 'https://idp.northbank.test/sso',
  idp_certs: [OTHER_IDP.cert],
  sp_entity_id: 'https://northbank.localhost/saml/sp',
  password_login: 'off',
  match_by: 'email',
  jit: { role: 'merchant_user', merchant_id: 2 },
};

/** A copy of config/tenants with the SAML blocks of these tests (and room for many sign-ins per IP). */
export function samlTenantDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'saml-tenants-'));
  cpSync(join(import.meta.dirname, '../../../config/tenants'), dir, { recursive: true });
  for (const [id, saml] of [
    ['acme', ACME_SAML],
    ['northbank', NORTHBANK_SAML],
  ] as const) {
    const file = join(dir, `${id}.yaml`);
    const config = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    config.saml = saml;
    config.rate_limits = { user_per_minute: 5000, auth_ip_per_minute: 5000, auth_username_per_minute: 5000 };
    writeFileSync(file, stringify(config));
  }
  return dir;
}

export const acsOf = (host: string) => `http://${host}/api/users/auth/saml/acs`;

/** GET .../saml/login through the gateway: the AuthnRequest's id and ACS URL, and the redirect. */
export async function startLogin(gateway: FastifyInstance, host = 'acme.localhost', returnTo?: string) {
  const query = returnTo === undefined ? '' : `?return_to=${encodeURIComponent(returnTo)}`;
  const response = await gateway.inject({
    method: 'GET',
    url: `/api/users/auth/saml/login${query}`,
    headers: { host },
  });
  if (response.statusCode !== 302) return { response, id: '', acs: '', relayState: null, location: '' };
  const location = String(response.headers.location);
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return {
    response,
    location,
    id: /\sID="([^"]+)"/.exec(xml)![1]!,
    acs: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)![1]!,
    relayState: url.searchParams.get('RelayState'),
    xml,
  };
}

export function acmeResponse(inResponseTo: string, extra: Partial<TestResponseOptions> = {}): string {
  return buildSamlResponse({
    privateKeyPem: TEST_IDP.key,
    certPem: TEST_IDP.cert,
    issuer: ACME_SAML.idp_entity_id,
    audience: ACME_SAML.sp_entity_id,
    acsUrl: acsOf('acme.localhost'),
    inResponseTo,
    nameId: 'federated',
    ...extra,
  });
}

export async function postAcs(
  gateway: FastifyInstance,
  samlResponse: string,
  o: { host?: string; relayState?: string; accept?: string } = {},
) {
  const form = new URLSearchParams({ SAMLResponse: samlResponse });
  if (o.relayState !== undefined) form.set('RelayState', o.relayState);
  return gateway.inject({
    method: 'POST',
    url: '/api/users/auth/saml/acs',
    headers: {
      host: o.host ?? 'acme.localhost',
      'content-type': 'application/x-www-form-urlencoded',
      ...(o.accept ? { accept: o.accept } : {}),
    },
    payload: form.toString(),
  });
}

export async function exchange(gateway: FastifyInstance, code: string, host = 'acme.localhost') {
  return gateway.inject({
    method: 'POST',
    url: '/api/users/auth/saml/token',
    headers: { host, 'content-type': 'application/json' },
    payload: JSON.stringify({ code }),
  });
}

export const codeOf = (location: unknown) => new URL(String(location), 'http://x').searchParams.get('code');
