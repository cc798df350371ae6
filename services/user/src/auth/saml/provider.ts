import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import type { SamlTenantConfig } from '@portal/contracts';

/**
 * The portal as a SAML 2.0 service provider, on @node-saml/node-saml: it
 * checks the XML signature (xml-crypto: only what the signature covers is
 * read, so a wrapped or added unsigned assertion is refused), the
 * Conditions' times and the Audience. Our own rules on top, all read from the
 * verified assertion: Issuer = the tenant's IdP, a bearer
 * SubjectConfirmation whose Recipient is our ACS URL on this host, an
 * InResponseTo naming one of our pending requests (checked by the caller,
 * once), and an assertion id (for replay refusal).
 */
const NS_ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const NS_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const DEFAULT_SKEW_SECONDS = 60;

export class SamlRejection extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SamlRejection';
  }
}

export function newRequestId(): string {
  // An xs:ID must not start with a digit.
  return `_${randomBytes(20).toString('hex')}`;
}

function skewMs(config: SamlTenantConfig): number {
  return (config.clock_skew_seconds ?? DEFAULT_SKEW_SECONDS) * 1000;
}

/** `certs`: the tenant's trusted IdP certificates, PEM, as trust.ts resolved and checked them. */
export function serviceProvider(
  config: SamlTenantConfig,
  certs: string[],
  acsUrl: string,
  requestId?: string,
): SAML {
  return new SAML({
    entryPoint: config.idp_sso_url,
    issuer: config.sp_entity_id,
    audience: config.sp_entity_id,
    callbackUrl: acsUrl,
    idpCert: certs,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: config.want_response_signed ?? false,
    acceptedClockSkewMs: skewMs(config),
    // InResponseTo is checked (and used up) in Postgres by the ACS, not in node-saml's process cache.
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

export interface VerifiedAssertion {
  assertionId: string;
  inResponseTo: string;
  nameId: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  /** The assertion is worthless after this (its replay record can go then). */
  expiresAt: Date;
  sessionIndex: string | null;
}

function child(el: Element, ns: string, name: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name)
      out.push(n as Element);
  return out;
}

function text(el: Element | undefined): string {
  return (el?.textContent ?? '').trim();
}

function attribute(profile: Profile, ...names: string[]): string | null {
  for (const name of names) {
    const v = profile[name];
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === 'string' && s.trim()) return s.trim().slice(0, 256);
  }
  return null;
}

/** Validates a posted SAMLResponse for this tenant and ACS URL; SamlRejection with the reason when refused. */
export async function verifyResponse(
  config: SamlTenantConfig,
  certs: string[],
  acs: string,
  samlResponse: string,
): Promise<VerifiedAssertion> {
  const sp = serviceProvider(config, certs, acs);
  let profile: Profile | null;
  try {
    ({ profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new SamlRejection(error instanceof Error ? error.message.slice(0, 300) : 'invalid');
  }
  if (!profile) throw new SamlRejection('no assertion');

  // The Response's Destination (signed or not) must name us when present.
  const raw = new DOMParser({ errorHandler: {} }).parseFromString(
    Buffer.from(samlResponse, 'base64').toString('utf8'),
    'text/xml',
  );
  const root = raw.documentElement;
  if (!root || root.namespaceURI !== NS_PROTOCOL || root.localName !== 'Response')
    throw new SamlRejection('not a Response');
  const destination = root.getAttribute('Destination');
  if (destination && destination !== acs) throw new SamlRejection('Destination is not our ACS URL');

  // Everything else from the assertion as verified (the signed bytes only).
  const doc = new DOMParser({ errorHandler: {} }).parseFromString(profile.getAssertionXml!(), 'text/xml');
  const assertion = doc.documentElement;
  if (!assertion || assertion.namespaceURI !== NS_ASSERTION || assertion.localName !== 'Assertion')
    throw new SamlRejection('no assertion');
  const assertionId = assertion.getAttribute('ID') ?? '';
  if (!assertionId) throw new SamlRejection('assertion without ID');
  if (text(child(assertion, NS_ASSERTION, 'Issuer')[0]) !== config.idp_entity_id)
    throw new SamlRejection('Issuer is not the tenant IdP');
  const subject = child(assertion, NS_ASSERTION, 'Subject')[0];
  if (!subject) throw new SamlRejection('no Subject');
  const nameId = text(child(subject, NS_ASSERTION, 'NameID')[0]);
  if (!nameId) throw new SamlRejection('no NameID');

  const now = Date.now();
  const skew = skewMs(config);
  let confirmed: { inResponseTo: string; notOnOrAfter: number } | null = null;
  for (const sc of child(subject, NS_ASSERTION, 'SubjectConfirmation')) {
    if (sc.getAttribute('Method') !== BEARER) continue;
    const data = child(sc, NS_ASSERTION, 'SubjectConfirmationData')[0];
    if (!data) continue;
    const notOnOrAfter = Date.parse(data.getAttribute('NotOnOrAfter') ?? '');
    const notBefore = data.getAttribute('NotBefore');
    if (data.getAttribute('Recipient') !== acs) continue;
    if (!Number.isFinite(notOnOrAfter) || now - skew >= notOnOrAfter) continue;
    if (notBefore && now + skew < Date.parse(notBefore)) continue;
    const inResponseTo = data.getAttribute('InResponseTo') ?? '';
    if (!inResponseTo) continue;
    confirmed = { inResponseTo, notOnOrAfter };
    break;
  }
  if (!confirmed) throw new SamlRejection('no bearer confirmation for our ACS URL in force');
  const responseInResponseTo = root.getAttribute('InResponseTo');
  if (responseInResponseTo && responseInResponseTo !== confirmed.inResponseTo)
    throw new SamlRejection('InResponseTo differs');

  const conditions = child(assertion, NS_ASSERTION, 'Conditions')[0];
  const conditionsEnd = Date.parse(conditions?.getAttribute('NotOnOrAfter') ?? '');
  const end = Math.max(confirmed.notOnOrAfter, Number.isFinite(conditionsEnd) ? conditionsEnd : 0) + skew;
  return {
    assertionId,
    inResponseTo: confirmed.inResponseTo,
    nameId: nameId.slice(0, 256),
    email: attribute(
      profile,
      'email',
      'mail',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    ),
    firstName: attribute(profile, 'firstName', 'givenName', 'urn:oid:2.5.4.42'),
    lastName: attribute(profile, 'lastName', 'sn', 'surname', 'urn:oid:2.5.4.4'),
    expiresAt: new Date(end),
    sessionIndex: profile.sessionIndex ?? null,
  };
}
