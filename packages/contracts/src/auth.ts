import { Type, type Static } from '@sinclair/typebox';
import type { InvalidationKind } from './internal-context';
import { Text } from './common';

/** Auth calls of design §4, public through the gateway (rate-limited). */
export const REFRESH_COOKIE = 'portal_rt';
/**
 * The refresh cookie's name when served over HTTPS (COOKIE_SECURE): the
 * `__Host-` prefix makes the browser demand Secure, Path=/ and no Domain, so
 * no sibling subdomain can set or shadow it. Both names are read while
 * browsers still hold the old one.
 */
export const REFRESH_COOKIE_HOST = '__Host-portal_rt';
export const REFRESH_COOKIE_NAMES = [REFRESH_COOKIE_HOST, REFRESH_COOKIE] as const;

/**
 * A refresh token is `<familyId>.<secret>`: the family (session) id in clear
 * lets the gateway rate-limit refreshes per session without a lookup; only
 * the secret part proves anything (the whole value is stored hashed).
 */
export const REFRESH_FAMILY =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[A-Za-z0-9_-]{20,}$/;

/**
 * Sign-out revocation of access tokens (claim `sid` = refresh family id):
 * a Redis marker under this key (TTL = access-token lifetime) plus an
 * invalidation message `{tenant, kind: 'session', id: sid}` on the
 * invalidation channel.
 */
export const revokedSessionKey = (tenant: string, sid: string) => `gw:revoked-sid:${tenant}:${sid}`;
export const SESSION_INVALIDATION_KIND = 'session' satisfies InvalidationKind;

/**
 * Bodies of the auth calls. No minLength: an empty field gets the spec's own
 * message from the handler ('Username cannot be empty.'), not a validator's.
 */
const text = (max: number) => Text({ maxLength: max });

export const SignInBody = Type.Object({ username: text(128), password: text(256) });
export type SignInBody = Static<typeof SignInBody>;

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  expires_in: Type.Integer(),
  token_type: Type.Literal('Bearer'),
});
export type TokenResponse = Static<typeof TokenResponse>;

/**
 * POST /users/auth/refresh answers
 * - 200 TokenResponse: a new access token (the refresh cookie is rotated);
 * - REFRESH_NO_SESSION (204, no body) when the request carries no refresh cookie at all: nobody is signed
 *   in on this browser yet (the sign-in page's first load). An answer, not an error, so the browser logs
 *   nothing;
 * - 401 when a refresh cookie was sent but proves nothing (unknown, expired, revoked, replayed, another
 *   tenant's): the cookie is cleared;
 * - 429 or 503 with Retry-After: not now, ask again (never a reason to sign out).
 */
export const REFRESH_NO_SESSION = 204;

export const ChallengeResponse = Type.Object({
  challenge: Type.Literal('NEW_PASSWORD_REQUIRED'),
  session: Type.String(),
});
export type ChallengeResponse = Static<typeof ChallengeResponse>;

export const SignInResponse = Type.Union([TokenResponse, ChallengeResponse]);
export type SignInResponse = Static<typeof SignInResponse>;

export const ChallengeBody = Type.Object({ session: text(256), new_password: text(256) });
export const ForgotBody = Type.Object({ username: text(128) });
export const ForgotConfirmBody = Type.Object({
  username: text(128),
  code: text(32),
  new_password: text(256),
});
export const ChangePasswordBody = Type.Object({ current_password: text(256), new_password: text(256) });
export const SsoExchangeBody = Type.Object({ token: text(8192) });

/** Claims of the access JWT (audience = tenant id). */
export interface AccessTokenClaims {
  sub: string;
  aud: string;
  iss: string;
  iat: number;
  exp: number;
  username: string;
  /** Token generation: bumped when the user's sessions must end. */
  sv?: number;
  /** Session id (the refresh-token family): revoked at sign-out. */
  sid?: string;
}
