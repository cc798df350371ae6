import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, basename, join } from 'node:path';
import { SAML_MESSAGES } from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { notFound, type Env } from '@portal/core';
import { readSamlTenant, type SamlTenant } from './config';
import { REPOSITORY_KEYS } from './repository-keys';

/**
 * The certificates a tenant's IdP is trusted with (`saml.idp_certs`): inline
 * PEM, or `{file}` read from DATA_DIR when used (re-read when it changes).
 *
 * Outside production anything that parses is trusted (tests bring their own
 * fixture IdPs; the demo IdP's certificate is generated into DATA_DIR). With
 * NODE_ENV=production a certificate is refused when its public key is one
 * whose private key is committed to this repository (repository-keys.ts) or
 * when its subject or issuer says it is for tests or demos only: the user
 * service then does not start (checkSamlTrustAtStart, naming the tenant), and
 * a tenant file changed later to trust one gets no SAML (logged) rather than
 * a key anyone with the repository holds.
 *
 * A `{file}` that is not there leaves the tenant's SAML off (a warning at
 * start): that is the shipped demo tenant in production, where nothing
 * generates the demo IdP's key.
 */
type Log = Pick<FastifyBaseLogger, 'warn' | 'error'>;

type SamlTrustProblem = 'missing' | 'invalid' | 'refused';

export class SamlTrustError extends Error {
  constructor(
    readonly tenant: string,
    readonly kind: SamlTrustProblem,
    detail: string,
  ) {
    super(`tenant '${tenant}': ${detail}`);
    this.name = 'SamlTrustError';
  }
}

interface SamlTrustOptions {
  dataDir: string;
  production: boolean;
}

export const trustOptions = (env: Pick<Env, 'DATA_DIR' | 'NODE_ENV'>): SamlTrustOptions => ({
  dataDir: env.DATA_DIR,
  production: env.NODE_ENV === 'production',
});

/** Words in a certificate's subject or issuer that keep it out of production. */
export const TEST_ONLY_NAME = /\b(?:tests?|testing|demo)[\s_-]*only\b|\bnot for production\b/i;

/** SHA-256, hex, of a certificate's DER SubjectPublicKeyInfo (the key, whatever certificate carries it). */
export function publicKeyFingerprint(cert: X509Certificate): string {
  return createHash('sha256')
    .update(cert.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** Why production must not trust this certificate, or null. */
function productionRefusal(cert: X509Certificate): string | null {
  const committed = REPOSITORY_KEYS[publicKeyFingerprint(cert)];
  if (committed) return `its private key is committed to the repository (${committed})`;
  for (const [what, value] of [
    ['subject', cert.subject],
    ['issuer', cert.issuer],
  ] as const) {
    if (TEST_ONLY_NAME.test(value))
      return `its ${what} marks it as test-only (${value.replace(/\s+/g, ' ').slice(0, 200)})`;
  }
  return null;
}

const files = new Map<string, { mtimeMs: number; text: string }>();

function readCertFile(path: string): string | null {
  if (!existsSync(path)) return null;
  const { mtimeMs } = statSync(path);
  const hit = files.get(path);
  if (hit && hit.mtimeMs === mtimeMs) return hit.text;
  const text = readFileSync(path, 'utf8');
  files.set(path, { mtimeMs, text });
  return text;
}

/** The PEM certificates of the tenant's IdP; SamlTrustError naming the tenant and the field when one is unusable. */
export function trustedCertificates(st: SamlTenant, o: SamlTrustOptions): string[] {
  return st.saml.idp_certs.map((entry, i) => {
    const field = `${st.file}: saml.idp_certs[${i}]`;
    let pem: string;
    let source = 'inline certificate';
    if (typeof entry === 'string') pem = entry;
    else {
      const path = join(o.dataDir, entry.file);
      source = path;
      const text = readCertFile(path);
      if (text === null)
        throw new SamlTrustError(st.tenant, 'missing', `${field}: certificate file ${path} does not exist`);
      pem = text;
    }
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(pem);
    } catch {
      throw new SamlTrustError(st.tenant, 'invalid', `${field}: ${source} is not a PEM certificate`);
    }
    if (o.production) {
      const refusal = productionRefusal(cert);
      if (refusal)
        throw new SamlTrustError(
          st.tenant,
          'refused',
          `${field}: a production IdP certificate must not be trusted: ${refusal}`,
        );
    }
    return pem;
  });
}

/** A tenant's SAML setup with its trusted certificates. */
interface SamlSetup extends SamlTenant {
  certs: string[];
}

/** The tenant's SAML setup, or 404 "not configured" (the reason logged) when it has none or cannot trust it. */
export function requireSamlSetup(
  env: Pick<Env, 'TENANT_CONFIG_DIR' | 'DATA_DIR' | 'NODE_ENV'>,
  tenant: string,
  log: Log,
): SamlSetup {
  const st = readSamlTenant(env.TENANT_CONFIG_DIR, tenant);
  if (!st) throw notFound(SAML_MESSAGES.notConfigured);
  try {
    return { ...st, certs: trustedCertificates(st, trustOptions(env)) };
  } catch (error) {
    if (!(error instanceof SamlTrustError)) throw error;
    log[error.kind === 'refused' ? 'error' : 'warn']({ tenant, problem: error.message }, 'SAML is off');
    throw notFound(SAML_MESSAGES.notConfigured);
  }
}

/**
 * At start: every tenant's trusted certificates. In production a refused or
 * unreadable certificate stops the start with one line per tenant; a missing
 * certificate file is a warning (that tenant's SAML stays off). Outside
 * production problems are only logged.
 */
export function checkSamlTrustAtStart(tenantDir: string, o: SamlTrustOptions, log: Log): void {
  if (!existsSync(tenantDir)) return;
  const problems: string[] = [];
  const stems = new Set(
    readdirSync(tenantDir)
      .filter((f) => ['.yaml', '.yml', '.json'].includes(extname(f)))
      .map((f) => basename(f, extname(f))),
  );
  for (const stem of [...stems].sort()) {
    const st = readSamlTenant(tenantDir, stem);
    if (!st) continue;
    try {
      trustedCertificates(st, o);
    } catch (error) {
      if (!(error instanceof SamlTrustError)) throw error;
      if (o.production && error.kind !== 'missing') problems.push(error.message);
      else log.warn({ tenant: st.tenant, problem: error.message }, 'SAML is off for this tenant');
    }
  }
  if (problems.length)
    throw new Error(
      `Refusing to start: a tenant trusts a SAML certificate it must not (NODE_ENV=production):\n  - ${problems.join('\n  - ')}`,
    );
}
