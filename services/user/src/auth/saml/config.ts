import type { FastifyRequest } from 'fastify';
import { SAML_MESSAGES, SAML_PATHS, type SamlTenantConfig } from '@portal/contracts';
import { badRequest, notFound, readTenantFile, TenantConfigError } from '@portal/core';

/**
 * A tenant's `saml` block (packages/contracts/src/saml.ts), read from the same
 * tenant file the gateway validated (TENANT_CONFIG_DIR), with the same
 * validation (readTenantFile of @portal/core, which re-reads a file when it
 * changes): a file that does not validate counts as having no block (SAML
 * off), never half-applied. The certificates it trusts are resolved and
 * checked by trust.ts.
 */
export interface SamlTenant {
  tenant: string;
  /** The tenant file it was read from. */
  file: string;
  domains: string[];
  saml: SamlTenantConfig;
}

export function readSamlTenant(dir: string, tenant: string): SamlTenant | null {
  let read;
  try {
    read = readTenantFile(dir, tenant);
  } catch (error) {
    if (error instanceof TenantConfigError) return null;
    throw error;
  }
  const saml = read?.config.saml;
  return read && saml ? { tenant, file: read.file, domains: read.config.domains, saml } : null;
}

/** The tenant's SAML setup, or 404 with a clear message when it has none. */
export function requireSamlTenant(dir: string, tenant: string): SamlTenant {
  const found = readSamlTenant(dir, tenant);
  if (!found) throw notFound(SAML_MESSAGES.notConfigured);
  return found;
}

/** Header set by the gateway on the identity calls: the public scheme and host of the request. */
export const PUBLIC_ORIGIN_HEADER = 'x-portal-origin';

/**
 * Our public origin for this request: only a host that is one of the tenant's
 * own domains (the default tenant also answers unknown hosts; an assertion
 * or AuthnRequest must never name those).
 */
export function publicOrigin(request: FastifyRequest, st: SamlTenant): string {
  const header = request.headers[PUBLIC_ORIGIN_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  let url: URL;
  try {
    url = new URL(value ?? '');
  } catch {
    throw badRequest(SAML_MESSAGES.badHost);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !st.domains.includes(url.hostname))
    throw badRequest(SAML_MESSAGES.badHost);
  return url.origin;
}

export const acsUrl = (origin: string) => origin + SAML_PATHS.acs;
