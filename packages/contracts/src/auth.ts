import { Type, type Static } from '@sinclair/typebox';

/** Auth calls of design §4, public through the gateway (rate-limited). */
export const REFRESH_COOKIE = 'portal_rt';

export const SignInBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 128 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
});
export type SignInBody = Static<typeof SignInBody>;

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  expires_in: Type.Integer(),
  token_type: Type.Literal('Bearer'),
});
export type TokenResponse = Static<typeof TokenResponse>;

export const ChallengeResponse = Type.Object({
  challenge: Type.Literal('NEW_PASSWORD_REQUIRED'),
  session: Type.String(),
});
export type ChallengeResponse = Static<typeof ChallengeResponse>;

export const SignInResponse = Type.Union([TokenResponse, ChallengeResponse]);
export type SignInResponse = Static<typeof SignInResponse>;

export const ChallengeBody = Type.Object({
  session: Type.String({ minLength: 1 }),
  new_password: Type.String({ minLength: 1, maxLength: 256 }),
});
export const ForgotBody = Type.Object({ username: Type.String({ minLength: 1, maxLength: 128 }) });
export const ForgotConfirmBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 128 }),
  code: Type.String({ minLength: 1, maxLength: 32 }),
  new_password: Type.String({ minLength: 1, maxLength: 256 }),
});
export const ChangePasswordBody = Type.Object({
  current_password: Type.String({ minLength: 1, maxLength: 256 }),
  new_password: Type.String({ minLength: 1, maxLength: 256 }),
});
export const SsoExchangeBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 8192 }) });

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
}
