import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_MESSAGES } from '@portal/contracts';
import type { Env } from '@portal/core';

/**
 * Where a webhook may go (SSRF guard). The host is resolved here and every
 * address checked; the delivery then connects to the checked address itself
 * (a second lookup could answer differently: DNS rebinding). Registration
 * (webhook-routes.ts) and every delivery attempt (delivery-jobs.ts) call
 * checkTarget, so both judge addresses with the one checkAddress below.
 * - only global unicast is public: IPv4 outside every special range of ipaddr.js (private,
 *   loopback, link-local, CGNAT, 0/8, multicast, broadcast, reserved with the documentation and
 *   benchmarking nets, AS112, AMT), IPv6 inside 2000::/3 outside every special range (documentation,
 *   benchmarking, ORCHID, Teredo, 6to4, ...);
 * - link-local (169.254.0.0/16 with the cloud metadata address, fe80::/10, scoped addresses) is
 *   always refused, and so are the IPv6 transition forms (see classifyV6);
 * - any other non-public address is refused outside development unless the operator allow-lists
 *   the network (WEBHOOK_ALLOWED_NETWORKS);
 * - plain http only in development or to an allow-listed network (internal receivers).
 */
export interface WebhookNetworkPolicy {
  development: boolean;
  allowed: BlockList;
}

export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** One checked address, in its canonical text (what the delivery connects to). */
interface CheckedAddress {
  address: string;
  family: 4 | 6;
  /** Inside WEBHOOK_ALLOWED_NETWORKS. */
  allowListed: boolean;
}

export class WebhookTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTargetError';
  }
}

/**
 * - `public`: allowed;
 * - `nonPublic`: allowed in development or when allow-listed;
 * - `linkLocal`, `never`: refused whatever the policy (the first with its own message).
 */
type AddressClass = 'public' | 'nonPublic' | 'linkLocal' | 'never';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** IANA's global unicast space: everything public in IPv6 today lies inside it. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** The NAT64 well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** IPv4-compatible addresses (RFC 4291, deprecated); ipaddr.js names only :: and ::1 in it. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
/** ipaddr.js range names of IPv6 forms that carry or reach an IPv4 address through a translator or tunnel. */
const TRANSITION = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

function classifyV4(ip: IPv4): AddressClass {
  const range = ip.range();
  if (range === 'unicast') return 'public';
  return range === 'linkLocal' ? 'linkLocal' : 'nonPublic';
}

/** The IPv4 address a transition form carries where its place is fixed (for the refusal's message). */
function embeddedV4(ip: IPv6, range: string): IPv4 | undefined {
  const bytes = ip.toByteArray();
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  if (['ipv4Mapped', 'rfc6145'].includes(range) || ip.match(IPV4_COMPATIBLE) || ip.match(NAT64_WELL_KNOWN))
    return new ipaddr.IPv4(bytes.slice(12));
  // Teredo obfuscates its client address; 64:ff9b:1::/48 places it by the operator's prefix length.
  return undefined;
}

/**
 * IPv6 transition forms (decision, issue 27): refused outright, whatever the allow-list or
 * development mode, except one. They reach an IPv4 address (or a relay) that an IPv6 check does not
 * see: 64:ff9b::7f00:1 is 127.0.0.1 behind a NAT64, ::ffff:a9fe:a9fe the metadata address on a
 * dual-stack socket, 2002:7f00:1:: a 6to4 relay's view of loopback. No receiver needs them: a
 * public IPv4 receiver is registered by its IPv4 address or host name, and no resolver answers a
 * host name with an IPv4-mapped, IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96), 6to4
 * (2002::/16), Teredo (2001::/32) or local-use NAT64 (64:ff9b:1::/48) address.
 * The exception is the NAT64 well-known prefix 64:ff9b::/96 with a public IPv4 address inside: on
 * an IPv6-only network (AWS IPv6-only subnets, IPv6-only Kubernetes) DNS64 answers every IPv4-only
 * receiver with exactly such an address, so refusing it would stop all those deliveries. There the
 * embedded address is judged as IPv4; RFC 6052 section 3.1 forbids the prefix with a non-global
 * IPv4 address, so any other embedded address is refused outright (the allow-list does not apply).
 */
function classifyV6(ip: IPv6): AddressClass {
  const range: string = ip.range();
  if (range === 'linkLocal') return 'linkLocal';
  // Before the IPv4-compatible test: both lie in ::/96, and a development receiver may listen on [::1].
  if (range === 'loopback' || range === 'unspecified') return 'nonPublic';
  if (ip.match(NAT64_WELL_KNOWN)) {
    const inner = classifyV4(new ipaddr.IPv4(ip.toByteArray().slice(12)));
    return inner === 'public' || inner === 'linkLocal' ? inner : 'never';
  }
  if (TRANSITION.has(range) || ip.match(IPV4_COMPATIBLE)) {
    const inner = embeddedV4(ip, range);
    return inner && classifyV4(inner) === 'linkLocal' ? 'linkLocal' : 'never';
  }
  // ipaddr.js calls anything outside its named ranges 'unicast', unallocated space (4000::/2) too.
  return range === 'unicast' && ip.match(GLOBAL_UNICAST) ? 'public' : 'nonPublic';
}

/**
 * Parses an address answered by a resolver or written as a URL host: strict text only (net.isIP:
 * dotted decimal without octal, hex or short forms), IPv6 rewritten to WHATWG URL's canonical
 * all-hex form first (ipaddr.js reads the deprecated `::a.b.c.d` as `::ffff:a.b.c.d`, a different
 * address). Undefined for anything else.
 */
function parseAddress(text: string): IPv4 | IPv6 | undefined {
  const family = isIP(text);
  if (family === 4) return ipaddr.IPv4.parse(text);
  if (family !== 6) return undefined;
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1));
  } catch {
    return undefined;
  }
}

function judge(text: string): { ip: IPv4 | IPv6; verdict: AddressClass } | undefined {
  const zone = text.indexOf('%');
  const ip = parseAddress(zone < 0 ? text : text.slice(0, zone));
  if (!ip) return undefined;
  const verdict = ip.kind() === 'ipv4' ? classifyV4(ip as IPv4) : classifyV6(ip as IPv6);
  // A zone (fe80::1%eth0) names a link, never a destination on the internet.
  return { ip, verdict: zone < 0 || verdict === 'linkLocal' ? verdict : 'never' };
}

/** What the policy makes of an address (undefined: not an address). */
export function classifyAddress(text: string): AddressClass | undefined {
  return judge(text)?.verdict;
}

/** Parses the allow-list (comma-separated CIDRs or single addresses); throws naming a bad entry. */
export function parseAllowedNetworks(value: string): BlockList {
  const list = new BlockList();
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address = '', bitsText] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const bits = bitsText === undefined ? max : Number(bitsText);
    if (!family || !Number.isInteger(bits) || bits < 0 || bits > max)
      throw new Error(`WEBHOOK_ALLOWED_NETWORKS: '${entry}' is not an address or CIDR`);
    list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

export function networkPolicy(env: Pick<Env, 'NODE_ENV' | 'WEBHOOK_ALLOWED_NETWORKS'>): WebhookNetworkPolicy {
  return {
    development: env.NODE_ENV === 'development',
    allowed: parseAllowedNetworks(env.WEBHOOK_ALLOWED_NETWORKS),
  };
}

/**
 * Refuses an address the policy does not allow (a resolver's answer or a URL's literal host);
 * answers its canonical text, which the delivery connects to, and whether it is allow-listed.
 */
export function checkAddress(policy: WebhookNetworkPolicy, text: string): CheckedAddress {
  const judged = judge(text);
  if (!judged) throw new WebhookTargetError(WEBHOOK_MESSAGES.unresolvable);
  const { ip, verdict } = judged;
  if (verdict === 'linkLocal') throw new WebhookTargetError(WEBHOOK_MESSAGES.linkLocal);
  if (verdict === 'never') throw new WebhookTargetError(WEBHOOK_MESSAGES.privateAddress);
  const address = ip.toString();
  const family = ip.kind() === 'ipv4' ? 4 : 6;
  const allowListed = policy.allowed.check(address, family === 4 ? 'ipv4' : 'ipv6');
  if (verdict === 'nonPublic' && !policy.development && !allowListed)
    throw new WebhookTargetError(WEBHOOK_MESSAGES.privateAddress);
  return { address, family, allowListed };
}

/** Parses the URL and refuses what is never allowed, before any lookup. */
function parseEndpointUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebhookTargetError(WEBHOOK_MESSAGES.badUrl);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new WebhookTargetError(WEBHOOK_MESSAGES.httpsOnly);
  if (url.username || url.password) throw new WebhookTargetError(WEBHOOK_MESSAGES.credentials);
  if (!url.hostname) throw new WebhookTargetError(WEBHOOK_MESSAGES.badUrl);
  url.hash = '';
  return url;
}

export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;
const resolveAll: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Resolves the endpoint and checks every address it resolves to (one bad
 * answer refuses the endpoint: a resolver may rotate). Answers the address to
 * connect to.
 */
export async function checkTarget(
  policy: WebhookNetworkPolicy,
  raw: string,
  resolve: Resolve = resolveAll,
): Promise<CheckedTarget> {
  const url = parseEndpointUrl(raw);
  // WHATWG URL has already canonicalised the host: every IPv4 form (2130706433, 0177.0.0.1,
  // 0x7f.1, 127.1) is dotted decimal, IPv6 is bracketed all-hex; anything else is a name to resolve.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let answers: Array<{ address: string; family: number }>;
  const literal = isIP(host);
  if (literal) answers = [{ address: host, family: literal }];
  else {
    try {
      answers = await resolve(host);
    } catch {
      throw new WebhookTargetError(WEBHOOK_MESSAGES.unresolvable);
    }
  }
  if (!answers.length) throw new WebhookTargetError(WEBHOOK_MESSAGES.unresolvable);
  // The family an answer claims is not trusted: each address is parsed for itself.
  const checked = answers.map((a) => checkAddress(policy, a.address));
  if (url.protocol === 'http:' && !policy.development && !checked.every((c) => c.allowListed))
    throw new WebhookTargetError(WEBHOOK_MESSAGES.httpsOnly);
  const first = checked[0]!;
  return { url, address: first.address, family: first.family };
}
