import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  DEMO_PASSWORD,
  REFRESH_COOKIE,
  SAML_DEMO_IDP_CERT_FILE,
  SAML_DEMO_IDP_KEY_FILE,
} from '@portal/contracts';
import { TenantConfigError } from '@portal/core';
import { startStack, type Stack } from '@portal/runner';
import { loadTenants } from '../../../gateway/src/tenants/load';
import { buildAssertion, buildResponseXml, toBase64 } from '../../../services/user/src/auth/saml/test-idp';
import { requireSamlTenant } from '../../../services/user/src/auth/saml/config';
import { safeReturnPath } from '../../../services/user/src/auth/saml/return-path';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import {
  ACME_SAML,
  acmeResponse,
  acsOf,
  codeOf,
  exchange,
  NORTHBANK_SAML,
  OTHER_IDP,
  postAcs,
  samlTenantDir,
  startLogin,
  TEST_IDP,
} from './support';

let t: TestEnv;
let stack: Stack;
let dir: string;
beforeAll(async () => {
  dir = samlTenantDir();
  t = await createTestEnv({ TENANT_CONFIG_DIR: dir });
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
});
afterAll(async () => {
  await stack.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const gw = () => stack.gateway;

/** Login, IdP answer, ACS: the ACS answer. */
async function signInThroughIdp(extra: Parameters<typeof acmeResponse>[1] = {}, returnTo?: string) {
  const login = await startLogin(gw(), 'acme.localhost', returnTo);
  expect(login.response.statusCode).toBe(302);
  return {
    login,
    acs: await postAcs(gw(), acmeResponse(login.id, extra), { relayState: login.relayState ?? undefined }),
  };
}

describe('SAML sign-in: the good path', () => {
  it('redirects to the IdP with an AuthnRequest naming our ACS URL on this host and the return path', async () => {
    const login = await startLogin(gw(), 'acme.localhost', '/chargebacks?status=1');
    expect(login.location.startsWith(`${ACME_SAML.idp_sso_url}?SAMLRequest=`)).toBe(true);
    expect(login.acs).toBe(acsOf('acme.localhost'));
    expect(login.xml).toContain(
      `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${ACME_SAML.sp_entity_id}</saml:Issuer>`,
    );
    expect(login.relayState).toBe('/chargebacks?status=1');
    expect(login.response.headers['cache-control']).toBe('no-store');
    const { rows } = await t.db.query(
      `select acs_url, return_to from users.saml_requests where request_id = $1`,
      [login.id],
    );
    expect(rows).toEqual([{ acs_url: acsOf('acme.localhost'), return_to: '/chargebacks?status=1' }]);
  });

  it('signs a federated user in: a one-time code, exchanged for the normal session', async () => {
    const { acs } = await signInThroughIdp({}, '/chargebacks?status=1');
    expect(acs.statusCode).toBe(303);
    expect(String(acs.headers.location)).toMatch(/^\/saml\/callback\?code=/);
    const code = codeOf(acs.headers.location)!;
    const token = await exchange(gw(), code);
    expect(token.statusCode).toBe(200);
    const body = token.json();
    expect(body).toMatchObject({ token_type: 'Bearer', return_to: '/chargebacks?status=1' });
    expect(String(token.headers['set-cookie'])).toMatch(new RegExp(`^${REFRESH_COOKIE}=.*HttpOnly`, 'i'));
    const me = await gw().inject({
      method: 'POST',
      url: '/api/users/whoami',
      headers: { host: 'acme.localhost', authorization: `Bearer ${body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'federated', is_federated: true });
    // The code is stored hashed only.
    const { rows } = await t.db.query<{ code_hash: string }>(`select code_hash from users.saml_codes`);
    expect(rows.map((r) => r.code_hash)).not.toContain(code);
  });

  it('the code is single-use, bound to its tenant, and expires', async () => {
    const first = codeOf((await signInThroughIdp()).acs.headers.location)!;
    expect((await exchange(gw(), first, 'northbank.localhost')).statusCode).toBe(401);
    expect((await exchange(gw(), first)).statusCode).toBe(200);
    const again = await exchange(gw(), first);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(
      'The single sign-on code is invalid or has expired. Please sign in again.',
    );

    const late = codeOf((await signInThroughIdp()).acs.headers.location)!;
    await t.db.query(
      `update users.saml_codes set expires_at = now() - interval '1 second' where used_at is null`,
    );
    expect((await exchange(gw(), late)).statusCode).toBe(401);
    expect((await exchange(gw(), 'made-up')).statusCode).toBe(401);
  });

  it('creates an unknown user just in time as a federated user when the tenant allows it', async () => {
    const login = await startLogin(gw(), 'northbank.localhost');
    const response = toBase64(
      buildResponseXml({
        privateKeyPem: OTHER_IDP.key,
        certPem: OTHER_IDP.cert,
        issuer: NORTHBANK_SAML.idp_entity_id,
        audience: NORTHBANK_SAML.sp_entity_id,
        acsUrl: acsOf('northbank.localhost'),
        inResponseTo: login.id,
        nameId: 'new.person@northbank.test',
        attributes: { firstName: 'New', lastName: 'Person' },
      }),
    );
    const acs = await postAcs(gw(), response, { host: 'northbank.localhost' });
    expect(acs.statusCode).toBe(303);
    expect((await exchange(gw(), codeOf(acs.headers.location)!, 'northbank.localhost')).statusCode).toBe(200);
    const { rows } = await t.db.query(
      `select u.tenant, u.username, u.email, u.fname, u.is_federated, u.password_hash, r.name as role, u.merchant_id::int as merchant_id
         from users.users u join users.roles r on r.id = u.role_id where lower(u.email) = 'new.person@northbank.test'`,
    );
    expect(rows).toEqual([
      {
        tenant: 'northbank',
        username: 'new.person@northbank.test',
        email: 'new.person@northbank.test',
        fname: 'New',
        is_federated: true,
        password_hash: null,
        role: 'merchant_user',
        merchant_id: 2,
      },
    ]);
  });

  it('refuses an unknown user where the tenant does not create users, and a password account of that name', async () => {
    const unknown = await signInThroughIdp({ nameId: 'nobody' });
    expect(unknown.acs.statusCode).toBe(403);
    expect(unknown.acs.json().message).toBe(
      'No account matches your single sign-on identity. Please contact your administrator.',
    );
    const password = await signInThroughIdp({ nameId: 'admin' });
    expect(password.acs.statusCode).toBe(403);
    expect(password.acs.json().message).toBe(
      'This account does not sign in through single sign-on. Please contact your administrator.',
    );
    // A browser lands on the callback page with a refusal code, never a code.
    const login = await startLogin(gw());
    const html = await postAcs(gw(), acmeResponse(login.id, { nameId: 'nobody' }), { accept: 'text/html' });
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toBe('/saml/callback?error=no_user');
  });

  it('publishes SP metadata and the public part of the setup; never the certificates', async () => {
    const meta = await gw().inject({
      method: 'GET',
      url: '/api/users/auth/saml/metadata',
      headers: { host: 'acme.localhost' },
    });
    expect(meta.statusCode).toBe(200);
    expect(meta.body).toContain(`entityID="${ACME_SAML.sp_entity_id}"`);
    expect(meta.body).toContain(`Location="${acsOf('acme.localhost')}"`);
    const tenant = await gw().inject({
      method: 'GET',
      url: '/api/tenant',
      headers: { host: 'acme.localhost' },
    });
    expect(tenant.json().saml).toEqual({ password_login: 'backdoor', logout_url: ACME_SAML.logout_url });
    expect(tenant.body).not.toContain('BEGIN CERTIFICATE');
  });
});

describe('SAML sign-in: refusals', () => {
  const refused = (r: { statusCode: number; json(): { message: string } }) => {
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe(
      'The single sign-on response is invalid or has expired. Please sign in again.',
    );
  };

  it('refuses an unsigned assertion, even in a signed response', async () => {
    refused((await signInThroughIdp({ signAssertion: false })).acs);
    refused((await signInThroughIdp({ signAssertion: false, signResponse: true })).acs);
  });

  it('accepts a signed assertion in a signed response', async () => {
    expect((await signInThroughIdp({ signResponse: true })).acs.statusCode).toBe(303);
  });

  it('refuses a wrong audience, a wrong issuer and another IdP key', async () => {
    refused((await signInThroughIdp({ audience: NORTHBANK_SAML.sp_entity_id })).acs);
    refused((await signInThroughIdp({ issuer: NORTHBANK_SAML.idp_entity_id })).acs);
    refused((await signInThroughIdp({ privateKeyPem: OTHER_IDP.key, certPem: OTHER_IDP.cert })).acs);
  });

  it('refuses a wrong Recipient or Destination (another tenant, another host), and a response posted to another tenant', async () => {
    refused((await signInThroughIdp({ recipient: acsOf('northbank.localhost') })).acs);
    refused((await signInThroughIdp({ destination: acsOf('northbank.localhost') })).acs);
    refused((await signInThroughIdp({ recipient: acsOf('localhost') })).acs);
    // A good acme response posted at northbank's ACS: northbank's IdP did not sign it.
    const login = await startLogin(gw());
    refused(await postAcs(gw(), acmeResponse(login.id), { host: 'northbank.localhost' }));
    // Started on acme.localhost, answered on localhost (also acme): the request named another ACS URL.
    const other = await startLogin(gw(), 'acme.localhost');
    refused(
      await postAcs(gw(), acmeResponse(other.id, { acsUrl: acsOf('localhost') }), { host: 'localhost' }),
    );
    // A host that is none of the tenant's domains (the default tenant answers it) never gets an ACS URL.
    const stray = await startLogin(gw(), 'evil.example');
    expect(stray.response.statusCode).toBe(400);
  });

  it('refuses an expired or not yet valid assertion (beyond the clock skew)', async () => {
    refused((await signInThroughIdp({ notBefore: -600, notOnOrAfter: -120 })).acs);
    refused((await signInThroughIdp({ notBefore: 600, notOnOrAfter: 900 })).acs);
    // Within the skew of 60 s it still counts.
    expect((await signInThroughIdp({ notBefore: -600, notOnOrAfter: -20 })).acs.statusCode).toBe(303);
  });

  it('refuses a replayed assertion and an answer to no request of ours', async () => {
    const login = await startLogin(gw());
    const response = acmeResponse(login.id);
    expect((await postAcs(gw(), response)).statusCode).toBe(303);
    refused(await postAcs(gw(), response));
    // The same assertion id under a fresh request: still a replay.
    const assertionId = '_replayed-assertion-id';
    const a = await startLogin(gw());
    expect((await postAcs(gw(), acmeResponse(a.id, { assertionId }))).statusCode).toBe(303);
    const b = await startLogin(gw());
    refused(await postAcs(gw(), acmeResponse(b.id, { assertionId })));
    // Unsolicited (IdP-initiated) or made-up InResponseTo.
    refused(await postAcs(gw(), acmeResponse('_never-sent')));
    // An expired request.
    const old = await startLogin(gw());
    await t.db.query(
      `update users.saml_requests set expires_at = now() - interval '1 second' where request_id = $1`,
      [old.id],
    );
    refused(await postAcs(gw(), acmeResponse(old.id)));
  });

  it('refuses XML signature wrapping: the signed assertion moved, an unsigned one in its place', async () => {
    await t.db.query(
      `insert into users.users (tenant, username, role_id, merchant_id, is_federated)
       select tenant, 'fed.two', role_id, merchant_id, true from users.users where tenant = 'acme' and username = 'federated'`,
    );
    const base = { privateKeyPem: TEST_IDP.key, certPem: TEST_IDP.cert, issuer: ACME_SAML.idp_entity_id };
    const wrap = async (arrange: (signed: string, evil: string) => string) => {
      const login = await startLogin(gw());
      const o = {
        ...base,
        audience: ACME_SAML.sp_entity_id,
        acsUrl: acsOf('acme.localhost'),
        inResponseTo: login.id,
      };
      const signed = buildAssertion({ ...o, nameId: 'federated' });
      const evil = buildAssertion({ ...o, nameId: 'fed.two', signAssertion: false });
      return postAcs(gw(), toBase64(buildResponseXml({ ...o, nameId: 'fed.two' }, arrange(signed, evil))));
    };
    // The signed assertion hidden in Extensions, the unsigned one where an assertion belongs.
    refused(await wrap((signed, evil) => `<samlp:Extensions>${signed}</samlp:Extensions>${evil}`));
    // Both side by side.
    refused(await wrap((signed, evil) => `${evil}${signed}`));
    // The evil one inside the signed one (its signature then no longer matches).
    refused(await wrap((signed, evil) => signed.replace('</saml:Assertion>', `${evil}</saml:Assertion>`)));
    // The signed one with the same ID as the evil one (the classic reference confusion).
    refused(
      await wrap((signed, evil) => {
        const id = /ID="([^"]+)"/.exec(signed)![1]!;
        return evil.replace(/ID="[^"]+"/, `ID="${id}"`) + `<samlp:Extensions>${signed}</samlp:Extensions>`;
      }),
    );
    const { rows } = await t.db.query(
      `select count(*)::int as n from users.login_history where username = 'fed.two' and success`,
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('refuses a return path off this site, at the start and in RelayState', async () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/%0d%0a',
    ]) {
      const login = await startLogin(gw(), 'acme.localhost', bad);
      if (bad === '/%0d%0a') {
        // Percent-encoded control characters stay encoded: a harmless path of this site.
        expect(login.response.statusCode).toBe(302);
        continue;
      }
      expect(login.response.statusCode, bad).toBe(400);
      expect(login.response.json().message).toBe('The return address must be a path of this site.');
    }
    const login = await startLogin(gw());
    const acs = await postAcs(gw(), acmeResponse(login.id), { relayState: 'https://evil.example/' });
    expect(acs.statusCode).toBe(400);
    expect(String(acs.headers.location ?? '')).not.toContain('evil');
    // A tampered (but harmless) RelayState does not choose the page: the request's own return path does.
    const mine = await startLogin(gw(), 'acme.localhost', '/alerts');
    const moved = await postAcs(gw(), acmeResponse(mine.id), { relayState: '/users' });
    const token = await exchange(gw(), codeOf(moved.headers.location)!);
    expect(token.json().return_to).toBe('/alerts');
    expect(safeReturnPath('/api/users/whoami')).toBe('/dashboard');
  });
});

describe('SAML tenants: password back-door and logout', () => {
  it("keeps password sign-in on a 'backdoor' tenant and refuses it where it is 'off'", async () => {
    const signin = (host: string) =>
      gw().inject({
        method: 'POST',
        url: '/api/users/auth/signin',
        headers: { host, 'content-type': 'application/json' },
        payload: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
      });
    expect((await signin('acme.localhost')).statusCode).toBe(200);
    const off = await signin('northbank.localhost');
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe('Password sign-in is turned off for this site. Please sign in with SSO.');
  });

  it('logout ends the session and answers the IdP logout URL', async () => {
    const token = await exchange(gw(), codeOf((await signInThroughIdp()).acs.headers.location)!);
    const cookie = String(token.headers['set-cookie']).split(';')[0]!;
    const out = await gw().inject({
      method: 'POST',
      url: '/api/users/auth/saml/logout',
      headers: { host: 'acme.localhost', cookie },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ redirect_url: ACME_SAML.logout_url });
    const refresh = await gw().inject({
      method: 'POST',
      url: '/api/users/auth/refresh',
      headers: { host: 'acme.localhost', cookie },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('a tenant without SAML answers 404 with a clear message', () => {
    // The shipped acme.yaml has no saml block.
    expect(() => requireSamlTenant(join(import.meta.dirname, '../../../config/tenants'), 'acme')).toThrow(
      'Single sign-on is not configured for this site.',
    );
  });

  it('the config schema refuses a broken saml block, naming the field', () => {
    const broken = samlTenantDir();
    const file = `${broken}/acme.yaml`;
    writeFileSync(file, readFileSync(file, 'utf8').replace(/idp_certs:[\s\S]*?sp_entity_id/, 'sp_entity_id'));
    try {
      loadTenants(broken);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TenantConfigError);
      expect((error as TenantConfigError).problems.join('\n')).toMatch(/acme\.yaml: saml(\.idp_certs)?: /);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('a certificate file must be a path inside DATA_DIR', () => {
    for (const path of ['../outside.crt', '/etc/ssl/idp.crt']) {
      const broken = samlTenantDir();
      const file = `${broken}/acme.yaml`;
      const config = parse(readFileSync(file, 'utf8')) as { saml: Record<string, unknown> };
      config.saml.idp_certs = [{ file: path }];
      writeFileSync(file, stringify(config));
      try {
        expect(() => loadTenants(broken)).toThrow(/acme\.yaml: saml\.idp_certs\[0\]: /);
      } finally {
        rmSync(broken, { recursive: true, force: true });
      }
    }
  });
});

describe('the demo tenant: trust from DATA_DIR, not from the repository', () => {
  it('the shipped northbank block trusts the demo IdP key generated into DATA_DIR, and nothing committed', async () => {
    const shipped = parse(
      readFileSync(join(import.meta.dirname, '../../../config/tenants/northbank.yaml'), 'utf8'),
    ) as { saml: { idp_certs: unknown[]; idp_entity_id: string; sp_entity_id: string } };
    expect(shipped.saml.idp_certs).toEqual([{ file: SAML_DEMO_IDP_CERT_FILE }]);
    const file = join(dir, 'northbank.yaml');
    const before = readFileSync(file, 'utf8');
    const config = parse(before) as Record<string, unknown>;
    writeFileSync(file, stringify({ ...config, saml: shipped.saml }));
    try {
      // The user service generated the demo IdP's key pair into this stack's DATA_DIR at start.
      const key = readFileSync(join(t.env.DATA_DIR, SAML_DEMO_IDP_KEY_FILE), 'utf8');
      const cert = readFileSync(join(t.env.DATA_DIR, SAML_DEMO_IDP_CERT_FILE), 'utf8');
      const sign = (id: string, pair: { key: string; cert: string }) =>
        toBase64(
          buildResponseXml({
            privateKeyPem: pair.key,
            certPem: pair.cert,
            issuer: shipped.saml.idp_entity_id,
            audience: shipped.saml.sp_entity_id,
            acsUrl: acsOf('northbank.localhost'),
            inResponseTo: id,
            nameId: 'federated',
          }),
        );
      // The committed test IdP key signs nothing the shipped tenant accepts.
      const forged = await startLogin(gw(), 'northbank.localhost');
      expect(forged.location.startsWith('http://localhost:8090/sso?SAMLRequest=')).toBe(true);
      expect(
        (await postAcs(gw(), sign(forged.id, TEST_IDP), { host: 'northbank.localhost' })).statusCode,
      ).toBe(401);
      // The demo IdP's key (tests/support/demo-saml-idp.ts signs with it) does.
      const login = await startLogin(gw(), 'northbank.localhost');
      const acs = await postAcs(gw(), sign(login.id, { key, cert }), { host: 'northbank.localhost' });
      expect(acs.statusCode).toBe(303);
      const token = await exchange(gw(), codeOf(acs.headers.location)!, 'northbank.localhost');
      expect(token.statusCode).toBe(200);
    } finally {
      writeFileSync(file, before);
    }
  });
});
