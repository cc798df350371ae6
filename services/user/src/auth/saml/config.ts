import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import { parse } from 'yaml';
import { SAML_MESSAGES, SAML_PATHS, SamlTenantConfig } from '@portal/contracts';
import { badRequest, notFound } from '@portal/core';

/**
 * A tenant's `saml` block (packages/contracts/src/saml.ts), read from the same
 * tenant file the gateway validated (TENANT_CONFIG_DIR), re-read when the file
 * changes, checked again against the schema here: a block that does not
 * validate counts as absent (SAML off), never half-applied. The certificates
 * it trusts are resolved and checked by trust.ts.
 */
export interface SamlTenant {
  tenant: string;
  /** The tenant file it was read from. */
  file: string;
  domains: string[];
  saml: SamlTenantConfig;
}

const TENANT = /^[a-z][a-z0-9-]{1,31}$/;
const cache = new Map<string, { mtimeMs: number; value: SamlTenant | null }>();

export function readSamlTenant(dir: string, tenant: string): SamlTenant | null {
  if (!TENANT.test(tenant)) return null;
  for (const ext of ['.yaml', '.yml', '.json']) {
    const file = join(dir, tenant + ext);
    if (!existsSync(file)) continue;
    const { mtimeMs } = statSync(file);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit.value;
    const text = readFileSync(file, 'utf8');
    const raw = (ext === '.json' ? JSON.parse(text) : parse(text)) as {
      domains?: unknown;
      saml?: unknown;
    } | null;
    const domains = Array.isArray(raw?.domains)
      ? raw.domains.filter((d): d is string => typeof d === 'string')
      : [];
    const value =
      raw?.saml !== undefined && Value.Check(SamlTenantConfig, raw.saml)
        ? { tenant, file, domains, saml: raw.saml }
        : null;
    cache.set(file, { mtimeMs, value });
    return value;
  }
  return null;
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
