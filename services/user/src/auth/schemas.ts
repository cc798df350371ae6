import { Type } from '@sinclair/typebox';
import { Text } from '@portal/contracts';

/**
 * Route schemas of the auth calls. Same fields as the contracts' bodies
 * (packages/contracts/src/auth.ts) but without minLength: an empty field gets
 * the spec's own message from the handler ('Username cannot be empty.'), not
 * a validator's wording.
 */
const text = (max: number) => Text({ maxLength: max });

export const SignInRoute = Type.Object({ username: text(128), password: text(256) });
export const ChallengeRoute = Type.Object({ session: text(256), new_password: text(256) });
export const ForgotRoute = Type.Object({ username: text(128) });
export const ForgotConfirmRoute = Type.Object({
  username: text(128),
  code: text(32),
  new_password: text(256),
});
export const ChangePasswordRoute = Type.Object({ current_password: text(256), new_password: text(256) });
export const SsoRoute = Type.Object({ token: text(8192) });

export const AUTH_MESSAGES = {
  usernameEmpty: 'Username cannot be empty.',
  passwordEmpty: 'Password cannot be empty.',
  codeEmpty: 'Verification code cannot be empty.',
  signInFailed: 'Incorrect username or password.',
  accountLocked: 'Your account is locked. Please contact your administrator.',
  ipBlocked: 'Sign-in from this IP address is not allowed.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  challengeInvalid: 'Your sign-in session has expired. Please sign in again.',
  codeInvalid: 'Invalid verification code provided, please try again.',
  currentPasswordWrong: 'Current password is incorrect.',
  federatedPassword: 'Federated users sign in through single sign-on and cannot use password calls.',
  ssoInvalid: 'The single sign-on token is invalid or has expired.',
  ssoNoUser: 'No single sign-on user matches this token.',
  resetFailed: 'An error occurred resetting password.',
} as const;
