import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { buildSamlResponse } from '../../services/user/src/auth/saml/test-idp';

/**
 * A tiny SAML identity provider for browser tests and demos (never for real
 * use): GET /sso reads the AuthnRequest (redirect binding), then posts a
 * response signed with the test IdP key to the ACS URL the request named,
 * for `nameId` (auto-posted) or for the username typed into its form.
 * GET /logout is its logout page.
 */
const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../integration/saml/fixtures', name), 'utf8');
export const TEST_IDP_KEY = () => fixture('test-idp.key');
export const TEST_IDP_CERT = () => fixture('test-idp.crt');

export interface TestIdpOptions {
  issuer: string;
  audience: string;
  /** Signs this user in without asking; otherwise a form asks for the username. */
  nameId?: string;
  port?: number;
  host?: string;
  /** The signing key and its certificate (PEM); the test IdP's fixture pair when absent. */
  key?: string;
  cert?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export async function startTestIdp(
  o: TestIdpOptions,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const key = o.key ?? TEST_IDP_KEY();
  const cert = o.cert ?? TEST_IDP_CERT();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://idp');
    const html = (body: string) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html><body>${body}</body></html>`);
    if (url.pathname === '/logout') return html('<h1>Signed out at the test IdP</h1>');
    if (url.pathname !== '/sso') return res.writeHead(404).end();
    const samlRequest = url.searchParams.get('SAMLRequest') ?? '';
    let request = '';
    try {
      request = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
    } catch {
      return res.writeHead(400).end('not a SAMLRequest');
    }
    const id = /\sID="([^"]+)"/.exec(request)?.[1] ?? '';
    const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(request)?.[1] ?? '';
    const relay = url.searchParams.get('RelayState');
    const user = o.nameId ?? url.searchParams.get('username');
    if (!user) {
      return html(
        `<h1>Test IdP</h1><form method="get" action="/sso">` +
          `<input type="hidden" name="SAMLRequest" value="${esc(samlRequest)}">` +
          (relay ? `<input type="hidden" name="RelayState" value="${esc(relay)}">` : '') +
          `<label>Username <input name="username" value="federated"></label> <button>Sign in</button></form>`,
      );
    }
    const response = buildSamlResponse({
      privateKeyPem: key,
      certPem: cert,
      issuer: o.issuer,
      audience: o.audience,
      acsUrl: acs,
      inResponseTo: id,
      nameId: user,
    });
    return html(
      `<p>Test IdP: signing you in...</p><form method="post" action="${esc(acs)}">` +
        `<input type="hidden" name="SAMLResponse" value="${esc(response)}">` +
        (relay ? `<input type="hidden" name="RelayState" value="${esc(relay)}">` : '') +
        `</form><script>document.forms[0].submit()</script>`,
    );
  });
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, host, resolve));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { url, server, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
