import {
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose';
import { LRUCache } from 'lru-cache';
import type { Jwks } from './jwks';

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

/** Header parameters that would let a token name its own key, or extensions we do not implement: never honoured. */
const FORBIDDEN_HEADER_PARAMS = ['jku', 'jwk', 'x5u', 'x5c', 'crit'];
const ACCEPTED_TYP = new Set([undefined, 'JWT', 'at+jwt']);
const CLOCK_SKEW_SECONDS = 5;
const MAX_TOKEN_LENGTH = 8192;

const refused = (reason: string): TokenCheck => ({ ok: false, reason });

/** Our own header rules, checked before any key lookup; undefined when the header passes. */
function headerProblem(header: ProtectedHeaderParameters): string | undefined {
  if (FORBIDDEN_HEADER_PARAMS.some((k) => k in header)) return 'forbidden header parameter';
  if (!ACCEPTED_TYP.has(header.typ)) return 'typ';
  if (typeof header.kid !== 'string' || typeof header.alg !== 'string') return 'no kid/alg';
  return undefined;
}

/** jose's error for a refused token, as the short reason the pipeline logs. */
function reasonOf(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'issuer';
    if (error.claim === 'aud') return 'audience';
    if (error.claim === 'nbf') return 'not yet valid';
    if (error.claim === 'exp') return 'expired';
    if (error.claim === 'sub') return 'subject';
    return `claim ${error.claim}`;
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature';
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'algorithm';
  if (error instanceof joseErrors.JOSEError) return 'malformed';
  // jose's TypeErrors name an unusable key or input (e.g. an RSA key under 2048 bits): still a refusal.
  if (error instanceof TypeError) return 'unusable';
  throw error;
}

/** The claims the pipeline needs, once jose has checked signature, issuer, audience and times. */
function claimsOf(claims: JWTPayload): VerifiedToken | string {
  const userId = typeof claims.sub === 'string' && /^[1-9]\d*$/.test(claims.sub) ? Number(claims.sub) : NaN;
  if (!Number.isSafeInteger(userId)) return 'subject';
  // One audience, the tenant (jose accepts a list that contains it).
  if (typeof claims.aud !== 'string') return 'audience';
  return {
    userId,
    username: typeof claims.username === 'string' ? claims.username : '',
    tenant: claims.aud,
    exp: claims.exp!,
    sv: typeof claims.sv === 'number' ? claims.sv : undefined,
    sid: typeof claims.sid === 'string' && claims.sid.length <= 64 ? claims.sid : undefined,
  };
}

/**
 * Access-token verification with jose behind an LRU of verified tokens (kept
 * until exp), the signature check being the main cost of the hot path.
 *
 * Our rules around the library: the algorithm is the one of the JWKS key named
 * by kid (jose is given only that one, so alg none, HS256 with the public key,
 * or RS/Ed swaps fail); header parameters that name a key (jku, jwk, x5u, x5c)
 * and crit are refused before any key lookup; typ absent, JWT or at+jwt;
 * issuer, audience (the tenant resolved from the Host, exactly one), exp
 * (required) and nbf with 5 s of clock skew; sub a positive integer user id.
 */
export class TokenVerifier {
  private readonly cache: LRUCache<string, VerifiedToken>;

  constructor(
    private readonly jwks: Jwks,
    private readonly issuer: string,
    cacheSize = 20_000,
  ) {
    this.cache = new LRUCache({ max: cacheSize });
  }

  /** The answer for a token verified before (synchronous: no promise on the hot path); undefined when not cached. */
  cached(token: string, tenant: string, nowMs = Date.now()): TokenCheck | undefined {
    const hit = this.cache.get(token);
    if (!hit) return undefined;
    // Same bound as jose's exp check with the clock skew.
    if (hit.exp <= Math.floor(nowMs / 1000) - CLOCK_SKEW_SECONDS) {
      this.cache.delete(token);
      return refused('expired');
    }
    return hit.tenant === tenant ? { ok: true, token: hit } : refused('audience');
  }

  async verify(token: string, tenant: string, nowMs = Date.now()): Promise<TokenCheck> {
    const known = this.cached(token, tenant, nowMs);
    if (known) return known;
    if (token.length > MAX_TOKEN_LENGTH) return refused('too long');
    let header: ProtectedHeaderParameters;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return refused('malformed');
    }
    const problem = headerProblem(header);
    if (problem) return refused(problem);
    const key = await this.jwks.get(header.kid!);
    if (!key) return refused('unknown kid');
    if (header.alg !== key.alg) return refused('algorithm');
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, key.key, {
        algorithms: [key.alg],
        issuer: this.issuer,
        audience: tenant,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(nowMs),
      }));
    } catch (error) {
      return refused(reasonOf(error));
    }
    const verified = claimsOf(claims);
    if (typeof verified === 'string') return refused(verified);
    this.cache.set(token, verified);
    return { ok: true, token: verified };
  }

  clear() {
    this.cache.clear();
  }
}
