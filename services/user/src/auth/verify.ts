import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { AccessTokenClaims } from '@portal/contracts';

/**
 * How an access token must be verified (the gateway does the same with the
 * JWKS of GET /users/.well-known/jwks.json): one algorithm family only,
 * issuer, audience = the tenant of the request host, expiry.
 */
export async function verifyAccessToken(
  token: string,
  keys: JSONWebKeySet,
  expected: { issuer: string; audience: string },
): Promise<AccessTokenClaims> {
  const { payload } = await jwtVerify(token, createLocalJWKSet(keys), {
    algorithms: ['EdDSA', 'RS256'],
    issuer: expected.issuer,
    audience: expected.audience,
    requiredClaims: ['sub', 'exp', 'iat'],
  });
  return payload as unknown as AccessTokenClaims;
}
