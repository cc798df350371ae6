/**
 * The authentication state machine of spec 1 §4.1, as a pure reducer.
 * Signed-out screens are switched by the state's name (the form type).
 */
export type AuthState =
  | { name: 'starting' }
  | { name: 'sso' }
  | { name: 'signIn'; notice?: string; error?: string; username?: string }
  | { name: 'confirmSignUp'; username: string; session: string }
  | { name: 'resetPassword'; username: string }
  | { name: 'forgotPassword'; username: string }
  | { name: 'passwordResetRequired' }
  | { name: 'Unauthenticated'; error?: string }
  | { name: 'signedIn' };

export type AuthEvent =
  | { type: 'NO_SESSION'; initial?: AuthState }
  | { type: 'SSO_STARTED' }
  | { type: 'SIGNED_IN' }
  | { type: 'NEW_PASSWORD_REQUIRED'; username: string; session: string }
  | { type: 'NEW_PASSWORD_SET' }
  | { type: 'FORGOT_LINK'; username?: string }
  | { type: 'CODE_REQUESTED'; username: string }
  | { type: 'PASSWORD_RESET_DONE' }
  | { type: 'LOGIN_INSTEAD' }
  | { type: 'DATA_CODE_401' }
  | { type: 'UNAUTHENTICATED'; error?: string }
  | { type: 'SIGNED_OUT' };

export const PASSWORD_SET_NOTICE = 'Your new password is set. Please sign in.';
export const PASSWORD_RESET_NOTICE = 'Your password has been reset. Please sign in.';

export function authReducer(state: AuthState, event: AuthEvent): AuthState {
  switch (event.type) {
    case 'NO_SESSION':
      return event.initial ?? { name: 'signIn' };
    case 'SSO_STARTED':
      return { name: 'sso' };
    case 'SIGNED_IN':
      return state.name === 'passwordResetRequired' ? state : { name: 'signedIn' };
    case 'NEW_PASSWORD_REQUIRED':
      return state.name === 'signIn' || state.name === 'Unauthenticated'
        ? { name: 'confirmSignUp', username: event.username, session: event.session }
        : state;
    case 'NEW_PASSWORD_SET':
      return state.name === 'confirmSignUp'
        ? { name: 'signIn', notice: PASSWORD_SET_NOTICE, username: state.username }
        : state;
    case 'FORGOT_LINK':
      return { name: 'resetPassword', username: event.username ?? '' };
    case 'CODE_REQUESTED':
      return state.name === 'resetPassword' ? { name: 'forgotPassword', username: event.username } : state;
    case 'PASSWORD_RESET_DONE':
      return state.name === 'forgotPassword'
        ? { name: 'signIn', notice: PASSWORD_RESET_NOTICE, username: state.username }
        : state;
    case 'LOGIN_INSTEAD':
      return { name: 'signIn' };
    case 'DATA_CODE_401':
      return { name: 'passwordResetRequired' };
    case 'UNAUTHENTICATED':
      // The forced-update form stays until its own reload.
      return state.name === 'passwordResetRequired' ? state : { name: 'Unauthenticated', error: event.error };
    case 'SIGNED_OUT':
      return { name: 'signIn' };
  }
}

/** The signed-out form preselected by the entry URL (spec 2.1): user_pass_reset / force_pass_reset preload the username. */
export function initialFormFromQuery(search: string): AuthState {
  const q = new URLSearchParams(search);
  const reset = q.get('user_pass_reset');
  if (reset !== null) return { name: 'resetPassword', username: reset.trim() };
  const forced = q.get('force_pass_reset');
  if (forced !== null) return { name: 'forgotPassword', username: forced.trim() };
  return { name: 'signIn' };
}

/** Single sign-on by query parameter: `?sso_token=<token>` (the artego exchange). */
export const SSO_QUERY_PARAM = 'sso_token';
export function ssoTokenFromQuery(search: string): string | null {
  const t = new URLSearchParams(search).get(SSO_QUERY_PARAM);
  return t && t.trim() ? t.trim() : null;
}
