import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import {
  INTERNAL_CONTEXT_HEADER,
  REFRESH_COOKIE_NAMES,
  REQUEST_ID_HEADER,
  type InternalContext,
} from '@portal/contracts';
import { contextWithoutUser, userContext } from '@portal/core';
import type { ContextSigner } from './context-signer';

/**
 * Client headers an upstream may see: an allow-list, so identity, tenant,
 * impersonation, forwarding and hop-by-hop headers (and anything named in
 * Connection) never reach a service under a name it trusts.
 */
const FORWARDED_REQUEST_HEADERS = [
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'content-length',
  'content-encoding',
  'if-none-match',
  'if-modified-since',
  'range',
  'user-agent',
  // A processor's webhook signature (issue 32): the case service verifies it over the raw body.
  'stripe-signature',
];

/** The `name=value` pairs of the refresh cookie (either name) in a Cookie header, nothing else. */
function refreshCookiesOnly(header: string): string {
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => {
      const eq = part.indexOf('=');
      return eq > 0 && (REFRESH_COOKIE_NAMES as readonly string[]).includes(part.slice(0, eq).trim());
    })
    .join('; ');
}

/** The public origin of an identity call (scheme and Host as the gateway resolved them). */
export const PUBLIC_ORIGIN_HEADER = 'x-portal-origin';

/** The client address as determined with the trusted-proxy rules. */
const CLIENT_IP_HEADER = 'x-client-ip';

export function contextFor(request: FastifyRequest): Omit<InternalContext, 'exp'> {
  const tenant = request.tenant!.config.id;
  const call = request.call;
  const eff = call?.effective;
  if (!eff || !call?.actor) return contextWithoutUser(tenant, request.id, 'public');
  return userContext(tenant, eff, call.actor.id, request.id);
}

/** The signed context of a call: contextFor(request), signed (the user part's JSON reused per profile). */
function signedContextFor(request: FastifyRequest, signer: ContextSigner): string {
  const call = request.call;
  const eff = call?.effective;
  if (!eff || !call?.actor) return signer.sign(contextFor(request));
  return signer.signUser(request.tenant!.config.id, eff, call.actor.id, request.id);
}

export function upstreamRequestHeaders(
  request: FastifyRequest,
  incoming: IncomingHttpHeaders,
  signer: ContextSigner,
  withCookies: boolean,
) {
  const out: Record<string, string | string[]> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const v = incoming[name];
    if (v !== undefined) out[name] = v;
  }
  // The refresh cookie matters only to the identity calls, and only it goes there: with the `__Host-`
  // name (Path=/) the browser sends it everywhere, with every other cookie of the host.
  if (withCookies && typeof incoming.cookie === 'string') {
    const cookie = refreshCookiesOnly(incoming.cookie);
    if (cookie) out.cookie = cookie;
  }
  // The identity calls learn the public origin (SAML ACS URL and Destination check, issue 16).
  if (withCookies) out[PUBLIC_ORIGIN_HEADER] = `${request.protocol}://${request.host}`;
  out[INTERNAL_CONTEXT_HEADER] = signedContextFor(request, signer);
  out[REQUEST_ID_HEADER] = request.id;
  out[CLIENT_IP_HEADER] = request.ip;
  return out;
}

type Headers = Record<string, string | string[] | undefined>;

/** Hop-by-hop and server-identifying answer headers; Node frames the body to the client itself. */
const DROPPED_RESPONSE_HEADERS = [
  'server',
  'x-powered-by',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'trailer',
  'upgrade',
  'transfer-encoding',
];

const DROPPED = new Set(DROPPED_RESPONSE_HEADERS);

/** Upstream answer headers: no internals, and absolute internal Locations made relative under /api. */
export function clientResponseHeaders(headers: Headers, upstreamOrigins: Set<string>): Headers {
  // A copy without the dropped names (cheaper than delete, which turns the object into a dictionary).
  const out: Headers = {};
  for (const name in headers) if (!DROPPED.has(name)) out[name] = headers[name];
  return rewriteLocation(out, upstreamOrigins);
}

function rewriteLocation(headers: Headers, upstreamOrigins: Set<string>): Headers {
  const location = headers.location;
  if (typeof location === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(location)) {
    try {
      const url = new URL(location);
      if (upstreamOrigins.has(url.origin)) headers.location = `/api${url.pathname}${url.search}`;
    } catch {
      delete headers.location;
    }
  }
  return headers;
}
