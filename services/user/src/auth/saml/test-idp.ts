import { randomBytes } from 'node:crypto';
import { SignedXml } from 'xml-crypto';

/**
 * A minimal SAML identity provider for tests, demos and the e2e IdP page:
 * builds a Response with one Assertion and signs it (enveloped RSA-SHA256,
 * exclusive c14n) with a test key, as real IdPs do. Every field a test needs
 * to break is an option. Never used by the service itself.
 */
export interface TestResponseOptions {
  privateKeyPem: string;
  certPem: string;
  issuer: string;
  audience: string;
  /** Our ACS URL: Destination and Recipient unless overridden. */
  acsUrl: string;
  inResponseTo: string;
  nameId: string;
  attributes?: Record<string, string>;
  recipient?: string;
  destination?: string | null;
  assertionId?: string;
  /** Seconds from now. */
  notBefore?: number;
  notOnOrAfter?: number;
  signAssertion?: boolean;
  signResponse?: boolean;
}

const iso = (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000).toISOString();
const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const newSamlId = () => `_${randomBytes(16).toString('hex')}`;

function sign(xml: string, o: TestResponseOptions, elementName: 'Assertion' | 'Response'): string {
  const sig = new SignedXml({
    privateKey: o.privateKeyPem,
    publicCert: o.certPem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: `//*[local-name(.)='${elementName}']`,
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  // The Signature goes after the Issuer, as the schema orders it.
  sig.computeSignature(xml, {
    location: { reference: `//*[local-name(.)='${elementName}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

/** The Assertion element alone (signed when asked). */
export function buildAssertion(o: TestResponseOptions): string {
  const id = o.assertionId ?? newSamlId();
  const attrs = Object.entries(o.attributes ?? {})
    .map(
      ([k, v]) =>
        `<saml:Attribute Name="${esc(k)}"><saml:AttributeValue>${esc(v)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  const xml =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(0)}">` +
    `<saml:Issuer>${esc(o.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${esc(o.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${esc(o.inResponseTo)}" NotOnOrAfter="${iso(o.notOnOrAfter ?? 300)}" Recipient="${esc(o.recipient ?? o.acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(o.notBefore ?? -30)}" NotOnOrAfter="${iso(o.notOnOrAfter ?? 300)}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${newSamlId()}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`;
  return o.signAssertion === false ? xml : sign(xml, o, 'Assertion');
}

/** A Response around an assertion (given, or built from the options); base64 as the POST binding carries it. */
export function buildResponseXml(o: TestResponseOptions, assertionXml = buildAssertion(o)): string {
  const destination = o.destination === null ? '' : ` Destination="${esc(o.destination ?? o.acsUrl)}"`;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${newSamlId()}" Version="2.0" IssueInstant="${iso(0)}"${destination} InResponseTo="${esc(o.inResponseTo)}">` +
    `<saml:Issuer>${esc(o.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertionXml +
    `</samlp:Response>`;
  return o.signResponse ? sign(xml, o, 'Response') : xml;
}

export const toBase64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

export function buildSamlResponse(o: TestResponseOptions): string {
  return toBase64(buildResponseXml(o));
}
