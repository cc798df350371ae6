import { createHmac, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Jwks } from './jwks';
import { TokenVerifier } from './verify-token';

/** The rules of the access-token check, one by one (the pipeline tests cover them through HTTP). */
const ISSUER = 'chargeback-portal';
const NOW = 1_800_000_000;
const nowMs = NOW * 1000;
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

interface Key {
  kid: string;
  alg: 'EdDSA' | 'RS256';
  privateKey: KeyObject;
  jwk: JsonWebKey;
}

function key(kid: string, alg: Key['alg']): Key {
  const pair =
    alg === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    kid,
    alg,
    privateKey: pair.privateKey,
    jwk: { ...pair.publicKey.export({ format: 'jwk' }), kid, use: 'sig' },
  };
}

const ed = key('ed-1', 'EdDSA');
const rsa = key('rsa-1', 'RS256');

function signed(k: Key, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const h = b64({ alg: k.alg, typ: 'JWT', kid: k.kid, ...header });
  const p = b64(claims);
  const s = sign(k.alg === 'EdDSA' ? null : 'sha256', Buffer.from(`${h}.${p}`), k.privateKey);
  return `${h}.${p}.${s.toString('base64url')}`;
}

const claims = (over: Record<string, unknown> = {}) => ({
  sub: '1000006',
  aud: 'acme',
  iss: ISSUER,
  iat: NOW,
  exp: NOW + 900,
  username: 'merchant.admin',
  sv: 3,
  sid: 'family-1',
  ...over,
});

function verifier() {
  let fetches = 0;
  const jwks = new Jwks(
    () => {
      fetches++;
      return Promise.resolve({ keys: [ed.jwk, rsa.jwk] });
    },
    pino({ level: 'silent' }),
    60_000,
  );
  const v = new TokenVerifier(jwks, ISSUER, 100);
  return { v, fetches: () => fetches };
}

const refused = async (token: string, reason: string, tenant = 'acme', at = nowMs) =>
  expect(await verifier().v.verify(token, tenant, at)).toEqual({ ok: false, reason });

describe('TokenVerifier', () => {
  it('accepts EdDSA and RS256 tokens and reads the claims the pipeline needs', async () => {
    const { v } = verifier();
    for (const k of [ed, rsa]) {
      expect(await v.verify(signed(k, claims()), 'acme', nowMs)).toEqual({
        ok: true,
        token: {
          userId: 1000006,
          username: 'merchant.admin',
          tenant: 'acme',
          exp: NOW + 900,
          sv: 3,
          sid: 'family-1',
        },
      });
    }
    const bare = await v.verify(
      signed(ed, claims({ username: 7, sv: '3', sid: 'x'.repeat(65) })),
      'acme',
      nowMs,
    );
    expect(bare).toMatchObject({ ok: true, token: { username: '', sv: undefined, sid: undefined } });
    // typ is optional; JWT and at+jwt are the two accepted values.
    expect((await v.verify(signed(ed, claims({ jti: 'a' }), { typ: 'at+jwt' }), 'acme', nowMs)).ok).toBe(
      true,
    );
    expect((await v.verify(signed(ed, claims({ jti: 'b' }), { typ: undefined }), 'acme', nowMs)).ok).toBe(
      true,
    );
  });

  it('answers a verified token from its cache, synchronously, until it expires', async () => {
    const { v, fetches } = verifier();
    const token = signed(ed, claims());
    expect(v.cached(token, 'acme', nowMs)).toBeUndefined();
    await v.verify(token, 'acme', nowMs);
    expect(v.cached(token, 'acme', nowMs)).toMatchObject({ ok: true, token: { userId: 1000006 } });
    // Another tenant's Host: the cached token's audience does not match.
    expect(v.cached(token, 'northbank', nowMs)).toEqual({ ok: false, reason: 'audience' });
    // Within the 5 s clock skew after exp it still counts, then it is forgotten.
    expect(v.cached(token, 'acme', (NOW + 900 + 4) * 1000)?.ok).toBe(true);
    expect(v.cached(token, 'acme', (NOW + 900 + 6) * 1000)).toEqual({ ok: false, reason: 'expired' });
    expect(v.cached(token, 'acme', nowMs)).toBeUndefined();
    v.clear();
    expect(fetches()).toBe(1);
  });

  it('refuses header parameters that name their own key (jku, jwk, x5u, x5c) and crit', async () => {
    for (const header of [
      { jku: 'http://evil.example/jwks.json' },
      { jwk: ed.jwk },
      { x5u: 'http://evil.example/cert.pem' },
      { x5c: ['MIIB'] },
      { crit: ['b64'], b64: true },
      { crit: ['exp'] },
    ])
      await refused(signed(ed, claims(), header), 'forbidden header parameter');
  });

  it('takes the algorithm from the key named by kid, not from the token', async () => {
    const c = b64(claims());
    await refused(`${b64({ alg: 'none', kid: ed.kid })}.${c}.`, 'algorithm');
    // HS256 keyed with the public key (the algorithm-confusion attack).
    const hs = b64({ alg: 'HS256', kid: rsa.kid });
    const mac = createHmac('sha256', JSON.stringify(rsa.jwk)).update(`${hs}.${c}`).digest('base64url');
    await refused(`${hs}.${c}.${mac}`, 'algorithm');
    // A valid RS256 signature presented under the EdDSA key's kid, and the other way round.
    await refused(signed({ ...rsa, kid: ed.kid }, claims()), 'algorithm');
    await refused(signed({ ...ed, kid: rsa.kid }, claims()), 'algorithm');
    await refused(signed(ed, claims(), { kid: 'unknown' }), 'unknown kid');
    await refused(signed(ed, claims(), { kid: 42 }), 'no kid/alg');
  });

  it('refuses a bad signature, typ, issuer, subject and audience', async () => {
    const good = signed(ed, claims());
    const other = key('ed-1', 'EdDSA');
    await refused(signed(other, claims()), 'signature');
    await refused(`${good.slice(0, good.lastIndexOf('.'))}.${'A'.repeat(86)}`, 'signature');
    await refused(signed(ed, claims(), { typ: 'JWE' }), 'typ');
    await refused(signed(ed, claims({ iss: 'someone-else' })), 'issuer');
    await refused(signed(ed, claims({ iss: undefined })), 'issuer');
    for (const sub of [undefined, '0', '-4', 'admin', '1.5', '99999999999999999'])
      await refused(signed(ed, claims({ sub })), 'subject');
    await refused(good, 'audience', 'northbank');
    await refused(signed(ed, claims({ aud: ['acme', 'northbank'] })), 'audience');
    await refused(signed(ed, claims({ aud: undefined })), 'audience');
  });

  it('checks exp and nbf with 5 s of clock skew', async () => {
    const { v } = verifier();
    const expired = signed(ed, claims({ exp: NOW - 60 }));
    expect(await v.verify(expired, 'acme', nowMs)).toEqual({ ok: false, reason: 'expired' });
    expect((await v.verify(signed(ed, claims({ exp: NOW - 4 })), 'acme', nowMs)).ok).toBe(true);
    await refused(signed(ed, claims({ exp: undefined })), 'expired');
    await refused(signed(ed, claims({ nbf: NOW + 60 })), 'not yet valid');
    expect((await v.verify(signed(ed, claims({ nbf: NOW + 4 })), 'acme', nowMs)).ok).toBe(true);
  });

  it('refuses malformed and oversized tokens', async () => {
    const { v, fetches } = verifier();
    const c = b64(claims());
    for (const token of ['', 'a.b', 'a.b.c.d', `${b64([1])}.${c}.x`, `not-json.${c}.x`])
      expect(await v.verify(token, 'acme', nowMs)).toEqual({ ok: false, reason: 'malformed' });
    expect(await v.verify(`${signed(ed, claims())}${'A'.repeat(8192)}`, 'acme', nowMs)).toEqual({
      ok: false,
      reason: 'too long',
    });
    expect(fetches()).toBe(0);
    // A signed payload that is not a claims object.
    const h = b64({ alg: 'EdDSA', typ: 'JWT', kid: ed.kid });
    const p = Buffer.from('[1]').toString('base64url');
    const s = sign(null, Buffer.from(`${h}.${p}`), ed.privateKey).toString('base64url');
    expect(await v.verify(`${h}.${p}.${s}`, 'acme', nowMs)).toEqual({ ok: false, reason: 'malformed' });
  });
});
