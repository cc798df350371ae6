/** The auth calls' messages (spec 1): the handlers answer these, not a validator's wording. */
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
