import type { IncomingMessage } from 'node:http';

/**
 * The canonical request target, decided once before routing (Fastify's
 * `rewriteUrl`), so that the gateway's policy and the upstream's router see
 * the same path (issue 20.1, PITFALLS "Learned in this project").
 *
 * The upstreams' router (find-my-way) percent-decodes a path before matching
 * and ends it at `?` or `#`. Checking the policy on the raw path let
 * `/api/cm/cases/%71c` reach `/cm/cases/qc` unchecked. Here the path is
 * decoded segment by segment, checked, and re-encoded minimally; the request
 * then carries that canonical URL to every hook, route and the proxy, and the
 * policy is matched on the decoded form.
 *
 * Refused (400 before any other check): anything but origin-form (absolute-form
 * `http://host/...`, authority-form, `*`), a raw `#`, malformed or non-UTF-8
 * percent-encoding, dot segments, empty segments (`//`), and segments that
 * decode to `/`, `\`, NUL or another control character.
 */
interface CanonicalTarget {
  /** Decoded path without query and trailing slash: what the policy is matched on. */
  path: string;
  /** What the request carries on: the re-encoded path plus the query string unchanged. */
  url: string;
}

/** Characters a path segment may carry literally (RFC 3986 pchar); everything else is percent-encoded. */
const PCHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]*$/;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_SEGMENT = /[\u0000-\u001f\u007f/\\]/;
/** Raw characters that need the slow path: percent-encoding, dots, backslashes, doubled slashes. */
const NEEDS_CHECK = /%|\/\.|\\|\/\/|#/;

function encodeSegment(segment: string): string {
  if (PCHAR.test(segment)) return segment;
  let out = '';
  for (const ch of segment) out += PCHAR.test(ch) ? ch : encodeURIComponent(ch);
  return out;
}

/** The canonical form of a request target, or null when it must be refused. */
export function canonicalTarget(raw: string): CanonicalTarget | null {
  if (raw.charCodeAt(0) !== 47 /* / */) return null;
  const q = raw.indexOf('?');
  const rawPath = q === -1 ? raw : raw.slice(0, q);
  const query = q === -1 ? '' : raw.slice(q);
  if (query.includes('#')) return null;

  // Fast path: nothing encoded, no dots after a slash, no backslash or doubled slash.
  if (!NEEDS_CHECK.test(rawPath)) {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    return { path, url: path === rawPath ? raw : path + query };
  }
  if (rawPath.includes('#')) return null;

  const segments = rawPath.slice(1).split('/');
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop(); // trailing slash
  const decoded: string[] = [];
  for (const segment of segments) {
    let d: string;
    try {
      d = decodeURIComponent(segment);
    } catch {
      return null; // malformed %, or bytes that are not UTF-8
    }
    if (d === '.' || d === '..' || FORBIDDEN_IN_SEGMENT.test(d)) return null;
    if (d === '' && segments.length > 1) return null;
    decoded.push(d);
  }
  const path = `/${decoded.join('/')}`;
  return { path, url: `/${decoded.map(encodeSegment).join('/')}${query}` };
}

/**
 * Canonical paths of the requests in flight, written by `rewriteUrl`, read by the pipeline: a symbol
 * property of the request (cheaper than a WeakMap entry per request; never sent anywhere).
 */
const CANONICAL_PATH = Symbol('gateway.canonicalPath');
type WithPath = IncomingMessage & { [CANONICAL_PATH]?: string };
const REFUSED = '\u0000refused';

/**
 * Fastify's `rewriteUrl`: every request continues with its canonical URL; a
 * refused one is routed to `/` and answered 400 by the first hook.
 */
export function rewriteToCanonical(req: IncomingMessage): string {
  const target = canonicalTarget(req.url ?? '');
  if (!target) {
    (req as WithPath)[CANONICAL_PATH] = REFUSED;
    return '/';
  }
  (req as WithPath)[CANONICAL_PATH] = target.path;
  return target.url;
}

/** The decoded path of a request (what the policy is matched on); null when the target was refused. */
export function canonicalPath(req: IncomingMessage): string | null {
  const path = (req as WithPath)[CANONICAL_PATH];
  if (path === REFUSED) return null;
  // Requests that bypass rewriteUrl (none in production) are canonicalised here.
  return path ?? canonicalTarget(req.url ?? '')?.path ?? null;
}

/**
 * False when the request carries more than one Host header (RFC 9112 §3.2: answer 400). Node keeps
 * the first and drops the others, while a proxy or cache in front may have acted on another one.
 */
export function hasSingleHost(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++seen > 1) return false;
  }
  return true;
}
