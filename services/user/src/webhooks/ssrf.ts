import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_MESSAGES } from '@portal/contracts';
import type { Env } from '@portal/core';

/**
 * Where a webhook may go (SSRF guard). The host is resolved here and every
 * address checked; the delivery then connects to the checked address itself
 * (a second lookup could answer differently: DNS rebinding).
 * - link-local (169.254.0.0/16 with the cloud metadata address, fe80::/10) is always refused;
 * - private, loopback, unspecified, CGNAT, multicast and reserved addresses are refused outside
 *   development unless the operator allow-lists the network (WEBHOOK_ALLOWED_NETWORKS);
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

export class WebhookTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTargetError';
  }
}

const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

const NON_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, bits, 'ipv6');

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

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it is. */
function normalise(address: string, family: 4 | 6): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address) : null;
  if (mapped) return { address: mapped[1]!, type: 'ipv4' };
  return { address, type: family === 4 ? 'ipv4' : 'ipv6' };
}

/** Refuses an address the policy does not allow; answers whether it is in the allow-list. */
export function checkAddress(policy: WebhookNetworkPolicy, address: string, family: 4 | 6): boolean {
  const a = normalise(address, family);
  if (LINK_LOCAL.check(a.address, a.type)) throw new WebhookTargetError(WEBHOOK_MESSAGES.linkLocal);
  const allowListed = policy.allowed.check(a.address, a.type);
  if (NON_PUBLIC.check(a.address, a.type) && !policy.development && !allowListed)
    throw new WebhookTargetError(WEBHOOK_MESSAGES.privateAddress);
  return allowListed;
}

/** Parses the URL and refuses what is never allowed, before any lookup. */
export function parseEndpointUrl(raw: string): URL {
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
  let allowListed = true;
  for (const a of answers) {
    const family = a.family === 6 ? 6 : 4;
    if (!checkAddress(policy, a.address, family)) allowListed = false;
  }
  if (url.protocol === 'http:' && !policy.development && !allowListed)
    throw new WebhookTargetError(WEBHOOK_MESSAGES.httpsOnly);
  const first = answers[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
