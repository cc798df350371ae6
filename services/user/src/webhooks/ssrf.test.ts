import { describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES as M } from '@portal/contracts';
import { checkAddress, checkTarget, classifyAddress, parseAllowedNetworks, type Resolve } from './ssrf';

/** The address policy of webhook endpoints (issue 27 part B): only global unicast, IPv6 transition forms judged. */
const production = { development: false, allowed: parseAllowedNetworks('') };
const development = { development: true, allowed: parseAllowedNetworks('') };
const allowListed = {
  development: false,
  allowed: parseAllowedNetworks('127.0.0.0/8, 10.0.0.0/8, fd00::/8, 64:ff9b::/96, 2002::/16'),
};

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255', // just below CGNAT
  '100.128.0.1', // just above CGNAT
  '172.15.255.255',
  '172.32.0.1',
  '192.0.1.1',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.254',
  '2606:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:81c::200e',
  '2620:fe::fe',
  '2c0f:f248::1',
  '64:ff9b::808:808', // NAT64 (DNS64) of 8.8.8.8
  '64:ff9b::1.1.1.1',
];

/** Refused outside development unless allow-listed. */
const NON_PUBLIC: Array<[string, string]> = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this network 0/8'],
  ['10.1.2.3', 'private 10/8'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.254', 'private 172.16/12'],
  ['192.168.1.1', 'private 192.168/16'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.254', 'CGNAT'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.7', 'documentation TEST-NET-3'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.254', 'benchmarking 198.18/15'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'IPv6 unspecified'],
  ['::1', 'IPv6 loopback'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'global multicast'],
  ['100::1', 'discard-only 100::/64'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['2001:db8:ffff::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['3fff:fff:ffff::1', 'documentation 3fff::/20'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:10::1', 'ORCHID (deprecated)'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:1::1', 'IETF protocol assignments 2001::/23'],
  ['fec0::1', 'site-local (deprecated)'],
  ['5f00::1', 'segment routing'],
  ['4000::1', 'outside 2000::/3 (unallocated)'],
  ['::1:0:0:1', 'unallocated in ::/8'],
];

/** Refused whatever the policy, with the private-address message. */
const NEVER: Array<[string, string]> = [
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::127.0.0.1', 'NAT64 of loopback (dotted)'],
  ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
  ['64:ff9b::c000:201', 'NAT64 of documentation 192.0.2.1'],
  ['64:ff9b::', 'NAT64 of 0.0.0.0'],
  ['64:ff9b:1::1', 'local-use NAT64 64:ff9b:1::/48'],
  ['64:ff9b:1:ffff::808:808', 'local-use NAT64, even of a public address'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback (hex)'],
  ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback (long)'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
  ['::ffff:0:808:808', 'IPv4-translated, even of a public address'],
  ['::127.0.0.1', 'IPv4-compatible loopback (ipaddr.js alone reads it as mapped)'],
  ['::7f00:1', 'IPv4-compatible loopback'],
  ['::a00:1', 'IPv4-compatible private'],
  ['::808:808', 'IPv4-compatible, even of a public address'],
  ['::2', 'IPv4-compatible 0.0.0.2'],
  ['2002:7f00:1::', '6to4 of loopback'],
  ['2002:808:808::1', '6to4, even of a public address'],
  ['2001::1', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2606:4700::1111%eth0', 'a zone on a global address'],
];

/** Refused whatever the policy, with the link-local message. */
const LINK_LOCAL: Array<[string, string]> = [
  ['169.254.169.254', 'cloud metadata'],
  ['169.254.0.1', 'IPv4 link-local'],
  ['fe80::1', 'IPv6 link-local'],
  ['febf::1', 'IPv6 link-local'],
  ['fe80::1%eth0', 'IPv6 link-local with a zone'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
  ['64:ff9b::169.254.169.254', 'NAT64 of the metadata address (dotted)'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
  ['::ffff:0:a9fe:a9fe', 'IPv4-translated metadata address'],
  ['::a9fe:a9fe', 'IPv4-compatible metadata address'],
  ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
];

describe('checkAddress', () => {
  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toBe('public');
    expect(checkAddress(production, address)).toMatchObject({ allowListed: false });
  });

  it.each(NON_PUBLIC)('refuses %s (%s) outside development, unless allow-listed', (address) => {
    expect(classifyAddress(address)).toBe('nonPublic');
    expect(() => checkAddress(production, address)).toThrow(M.privateAddress);
    expect(() => checkAddress(development, address)).not.toThrow();
  });

  it.each(NEVER)('refuses %s (%s) in every policy', (address) => {
    expect(classifyAddress(address)).toBe('never');
    for (const policy of [production, development, allowListed])
      expect(() => checkAddress(policy, address)).toThrow(M.privateAddress);
  });

  it.each(LINK_LOCAL)('refuses %s (%s) as link-local in every policy', (address) => {
    expect(classifyAddress(address)).toBe('linkLocal');
    for (const policy of [production, development, allowListed])
      expect(() => checkAddress(policy, address)).toThrow(M.linkLocal);
  });

  it('honours the allow-list for non-public addresses only, never for transition forms', () => {
    expect(checkAddress(allowListed, '10.9.8.7')).toEqual({
      address: '10.9.8.7',
      family: 4,
      allowListed: true,
    });
    expect(checkAddress(allowListed, 'fd00::5')).toEqual({
      address: 'fd00::5',
      family: 6,
      allowListed: true,
    });
    expect(() => checkAddress(allowListed, '192.168.0.1')).toThrow(M.privateAddress);
    // 127.0.0.0/8 and 64:ff9b::/96 allow-listed: still not 127.0.0.1 behind NAT64 or mapped.
    expect(() => checkAddress(allowListed, '64:ff9b::7f00:1')).toThrow(M.privateAddress);
    expect(() => checkAddress(allowListed, '::ffff:127.0.0.1')).toThrow(M.privateAddress);
    expect(() => checkAddress(allowListed, '2002:a00:1::')).toThrow(M.privateAddress);
  });

  it('answers the canonical text, which the delivery connects to', () => {
    expect(checkAddress(production, '2606:4700:0:0:0:0:0:1111')).toEqual({
      address: '2606:4700::1111',
      family: 6,
      allowListed: false,
    });
    expect(checkAddress(production, '64:FF9B::8.8.8.8')).toMatchObject({
      address: '64:ff9b::808:808',
      family: 6,
    });
  });

  it.each([
    '0177.0.0.1',
    '2130706433',
    '0x7f.0.0.1',
    '127.1',
    '8.8.8.8.',
    '',
    'localhost',
    '::ffff:1.2.3',
    '1::2::3',
  ])('refuses %j from a resolver: not the strict text of an address', (text) => {
    expect(classifyAddress(text)).toBeUndefined();
    expect(() => checkAddress(development, text)).toThrow(M.unresolvable);
  });
});

describe('checkTarget', () => {
  const resolveTo =
    (...addresses: Array<[string, number]>): Resolve =>
    () =>
      Promise.resolve(addresses.map(([address, family]) => ({ address, family })));
  const never: Resolve = () => Promise.reject(new Error('no lookup expected for a literal'));

  it.each([
    ['https://[64:ff9b::7f00:1]/h', M.privateAddress],
    ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data/', M.linkLocal],
    ['https://[::ffff:0:7f00:1]/h', M.privateAddress],
    ['https://[::127.0.0.1]/h', M.privateAddress],
    ['https://[2001:db8::1]/h', M.privateAddress],
    ['https://[::ffff:127.0.0.1]/h', M.privateAddress],
    ['https://[0:0:0:0:0:ffff:a9fe:a9fe]/h', M.linkLocal],
    ['https://[2002:7f00:1::]/h', M.privateAddress],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h', M.privateAddress],
    ['https://[100::1]/h', M.privateAddress],
    ['https://[3fff::1]/h', M.privateAddress],
    // Odd IPv4 forms: WHATWG URL makes them dotted decimal before the check.
    ['https://2130706433/h', M.privateAddress],
    ['https://0177.0.0.1/h', M.privateAddress],
    ['https://0x7f.0.0.1/h', M.privateAddress],
    ['https://0x7f000001/h', M.privateAddress],
    ['https://127.1/h', M.privateAddress],
    ['https://127.0.0.1./h', M.privateAddress],
    ['https://%31%32%37.0.0.1/h', M.privateAddress],
    ['https://2852039166/latest/meta-data/', M.linkLocal],
    ['https://0xa9.0xfe.0xa9.0xfe/', M.linkLocal],
    ['https://0251.0376.0251.0376/', M.linkLocal],
    ['https://203.0.113.7/h', M.privateAddress],
  ])('refuses %s without a lookup', async (url, message) => {
    await expect(checkTarget(production, url, never)).rejects.toThrow(message);
  });

  it('allows public literals and connects to their canonical address', async () => {
    await expect(checkTarget(production, 'https://8.8.8.8/h', never)).resolves.toMatchObject({
      address: '8.8.8.8',
      family: 4,
    });
    await expect(checkTarget(production, 'https://134744072/h', never)).resolves.toMatchObject({
      address: '8.8.8.8',
    });
    await expect(checkTarget(production, 'https://[2606:4700::1111]/h', never)).resolves.toMatchObject({
      address: '2606:4700::1111',
      family: 6,
    });
    await expect(checkTarget(production, 'https://[64:ff9b::8.8.8.8]/h', never)).resolves.toMatchObject({
      address: '64:ff9b::808:808',
      family: 6,
    });
  });

  it.each([
    [[['64:ff9b::7f00:1', 6]], M.privateAddress],
    [[['64:ff9b::a9fe:a9fe', 6]], M.linkLocal],
    [[['::ffff:0:7f00:1', 6]], M.privateAddress],
    [[['::127.0.0.1', 6]], M.privateAddress],
    [[['::7f00:1', 6]], M.privateAddress],
    [[['2001:db8::1', 6]], M.privateAddress],
    [[['::ffff:169.254.169.254', 6]], M.linkLocal],
    // A resolver claiming the wrong family is not believed.
    [[['::1', 4]], M.privateAddress],
    [[['127.0.0.1', 6]], M.privateAddress],
    // One bad answer among good ones refuses the host.
    [
      [
        ['8.8.8.8', 4],
        ['64:ff9b::7f00:1', 6],
      ],
      M.privateAddress,
    ],
    [
      [
        ['2606:4700::1111', 6],
        ['198.18.0.1', 4],
      ],
      M.privateAddress,
    ],
    // What a resolver must never answer: not an address at all.
    [[['0177.0.0.1', 4]], M.unresolvable],
    [[['2130706433', 4]], M.unresolvable],
  ] as Array<[Array<[string, number]>, string]>)(
    'refuses a host name answered with %j',
    async (answers, message) => {
      await expect(
        checkTarget(production, 'https://hooks.example.com/h', resolveTo(...answers)),
      ).rejects.toThrow(message);
    },
  );

  it('allows a host name answered with public addresses only, connecting to the first', async () => {
    const target = await checkTarget(
      production,
      'https://hooks.example.com/h',
      resolveTo(['2606:4700:0::1111', 6], ['8.8.8.8', 4], ['64:ff9b::101:101', 6]),
    );
    expect(target).toMatchObject({ address: '2606:4700::1111', family: 6 });
    expect(target.url.toString()).toBe('https://hooks.example.com/h');
  });

  it('keeps loopback and [::1] for development receivers, never their transition forms', async () => {
    await expect(checkTarget(development, 'http://127.0.0.1:3000/x', never)).resolves.toMatchObject({
      address: '127.0.0.1',
    });
    await expect(checkTarget(development, 'http://[::1]:3000/x', never)).resolves.toMatchObject({
      address: '::1',
    });
    await expect(checkTarget(development, 'http://[64:ff9b::7f00:1]:3000/x', never)).rejects.toThrow(
      M.privateAddress,
    );
    await expect(checkTarget(development, 'http://[::ffff:127.0.0.1]:3000/x', never)).rejects.toThrow(
      M.privateAddress,
    );
  });
});
