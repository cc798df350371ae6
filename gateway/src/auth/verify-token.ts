import { verify as cryptoVerify } from 'node:crypto';
import type { Jwks } from './jwks';
import { Lru } from './lru';

export interface VerifiedToken {
  userId: number;
  username: string;
  tenant: string;
  exp: number;
  /** Session generation (claim `sv`); a token older than the user's current one is refused. */
  sv: number | undefined;
  /** Session id (claim `sid`, the refresh family): revoked at sign-out (auth/revoked-sessions.ts). */
  sid: string | undefined;
}

export type TokenCheck = { ok: true; token: VerifiedToken } | { ok: false; reason: string };

/** Header parameters that would let a token name its own key: never honoured. */
const FORBIDDEN_HEADER_PARAMS = ['jku', 'jwk', 'x5u', 'x5c', 'crit'];
const CLOCK_SKEW_SECONDS = 5;

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Access-token verification with node:crypto: the algorithm must be the one of
 * the JWKS key named by kid (so alg none, HS256 with the public key, or RS/Ed
 * swaps fail), issuer and audience (the tenant resolved from the Host) must
 * match. @fastify/jwt would need a verifier per call for a per-request
 * audience, defeating its cache; this keeps one LRU of verified tokens
 * (until exp) in front of the signature check, the main cost of the hot path.
 */
export class TokenVerifier {
  private readonly cache: Lru<string, VerifiedToken>;

  constructor(
    private readonly jwks: Jwks,
    private readonly issuer: string,
    cacheSize = 20_000,
  ) {
    this.cache = new Lru(cacheSize);
  }

  /** The answer for a token verified before (synchronous: no promise on the hot path); undefined when not cached. */
  cached(token: string, tenant: string, nowMs = Date.now()): TokenCheck | undefined {
    const hit = this.cache.get(token);
    if (!hit) return undefined;
    if (hit.exp + CLOCK_SKEW_SECONDS < Math.floor(nowMs / 1000)) {
      this.cache.delete(token);
      return { ok: false, reason: 'expired' };
    }
    return hit.tenant === tenant ? { ok: true, token: hit } : { ok: false, reason: 'audience' };
  }

  async verify(token: string, tenant: string, nowMs = Date.now()): Promise<TokenCheck> {
    const now = Math.floor(nowMs / 1000);
    const known = this.cached(token, tenant, nowMs);
    if (known) return known;
    if (token.length > 8192) return { ok: false, reason: 'too long' };
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, reason: 'malformed' };
    const [h, p, s] = parts as [string, string, string];
    const header = decodeJson(h);
    const claims = decodeJson(p);
    if (!header || !claims) return { ok: false, reason: 'malformed' };
    if (FORBIDDEN_HEADER_PARAMS.some((k) => k in header))
      return { ok: false, reason: 'forbidden header parameter' };
    if (header.typ !== undefined && header.typ !== 'JWT' && header.typ !== 'at+jwt')
      return { ok: false, reason: 'typ' };
    if (typeof header.kid !== 'string' || typeof header.alg !== 'string')
      return { ok: false, reason: 'no kid/alg' };
    const key = await this.jwks.get(header.kid);
    if (!key) return { ok: false, reason: 'unknown kid' };
    if (header.alg !== key.alg) return { ok: false, reason: 'algorithm' };
    const signature = Buffer.from(s, 'base64url');
    const data = Buffer.from(`${h}.${p}`);
    const valid = cryptoVerify(key.alg === 'EdDSA' ? null : 'sha256', data, key.key, signature);
    if (!valid) return { ok: false, reason: 'signature' };
    if (claims.iss !== this.issuer) return { ok: false, reason: 'issuer' };
    const aud = claims.aud;
    const audiences = Array.isArray(aud) ? aud : [aud];
    if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_SECONDS < now)
      return { ok: false, reason: 'expired' };
    if (typeof claims.nbf === 'number' && claims.nbf - CLOCK_SKEW_SECONDS > now)
      return { ok: false, reason: 'not yet valid' };
    const userId = Number(claims.sub);
    if (!Number.isSafeInteger(userId) || userId <= 0) return { ok: false, reason: 'subject' };
    if (audiences.length !== 1 || typeof audiences[0] !== 'string') return { ok: false, reason: 'audience' };
    const verified: VerifiedToken = {
      userId,
      username: typeof claims.username === 'string' ? claims.username : '',
      tenant: audiences[0],
      exp: claims.exp,
      sv: typeof claims.sv === 'number' ? claims.sv : undefined,
      sid: typeof claims.sid === 'string' && claims.sid.length <= 64 ? claims.sid : undefined,
    };
    this.cache.set(token, verified);
    return verified.tenant === tenant ? { ok: true, token: verified } : { ok: false, reason: 'audience' };
  }

  clear() {
    this.cache.clear();
  }
}
