import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Logger } from '@portal/core';

type JwtAlg = 'EdDSA' | 'RS256';

interface VerifyKey {
  kid: string;
  alg: JwtAlg;
  key: KeyObject;
}

interface Jwk extends JsonWebKey {
  kid?: string;
  alg?: string;
  use?: string;
}

/** The algorithm a key may verify: its own `alg`, else the one its type implies. Anything else is refused. */
function algOf(jwk: Jwk): JwtAlg | undefined {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && (!jwk.alg || jwk.alg === 'EdDSA')) return 'EdDSA';
  if (jwk.kty === 'RSA' && (!jwk.alg || jwk.alg === 'RS256')) return 'RS256';
  return undefined;
}

/**
 * The user service's signing keys, by kid. Fetched at first use, refreshed
 * every `maxAgeMs`, and refetched on an unknown kid no more often than
 * `refetchFloorMs` (an attacker's random kids must not hammer the user service).
 */
export class Jwks {
  private keys = new Map<string, VerifyKey>();
  private fetchedAt = 0;
  private lastAttempt = 0;
  private inflight: Promise<void> | undefined;

  constructor(
    private readonly fetchJwks: () => Promise<{ keys: Jwk[] }>,
    private readonly log: Logger,
    private readonly refetchFloorMs = 10_000,
    private readonly maxAgeMs = 10 * 60_000,
  ) {}

  /** The key of a kid, or undefined; fetches when unknown (bounded) or stale. */
  async get(kid: string): Promise<VerifyKey | undefined> {
    const now = Date.now();
    const hit = this.keys.get(kid);
    if (hit && now - this.fetchedAt < this.maxAgeMs) return hit;
    if (now - this.lastAttempt >= this.refetchFloorMs || (!this.fetchedAt && !this.inflight))
      await this.refresh();
    else if (this.inflight) await this.inflight;
    return this.keys.get(kid);
  }

  refresh(): Promise<void> {
    if (this.inflight) return this.inflight;
    this.lastAttempt = Date.now();
    this.inflight = this.fetchJwks()
      .then((body) => {
        const next = new Map<string, VerifyKey>();
        for (const jwk of body.keys ?? []) {
          const alg = algOf(jwk);
          if (!jwk.kid || !alg || (jwk.use && jwk.use !== 'sig')) continue;
          try {
            next.set(jwk.kid, { kid: jwk.kid, alg, key: createPublicKey({ key: jwk, format: 'jwk' }) });
          } catch (error) {
            this.log.warn({ err: error, kid: jwk.kid }, 'JWKS key refused');
          }
        }
        this.keys = next;
        this.fetchedAt = Date.now();
      })
      .catch((error: unknown) => {
        // Keep the keys we have: the user service being briefly down must not sign everybody out.
        this.log.warn({ err: error }, 'JWKS fetch failed; keeping the previous keys');
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}
