import { describe, expect, it } from 'vitest';
import { authReducer, initialFormFromQuery, ssoTokenFromQuery, type AuthState } from './auth-machine';

const run = (start: AuthState, ...events: Parameters<typeof authReducer>[1][]) =>
  events.reduce(authReducer, start);

describe('auth state machine (spec 1 §4.1)', () => {
  it('signIn -> signedIn', () => {
    expect(run({ name: 'signIn' }, { type: 'SIGNED_IN' })).toEqual({ name: 'signedIn' });
  });
  it('signIn -> confirmSignUp -> signIn when a new password is required', () => {
    const s = run({ name: 'signIn' }, { type: 'NEW_PASSWORD_REQUIRED', username: 'newpass', session: 's1' });
    expect(s).toEqual({ name: 'confirmSignUp', username: 'newpass', session: 's1' });
    expect(authReducer(s, { type: 'NEW_PASSWORD_SET' })).toMatchObject({
      name: 'signIn',
      username: 'newpass',
    });
  });
  it('signIn -> resetPassword -> forgotPassword -> signIn', () => {
    const a = run({ name: 'signIn' }, { type: 'FORGOT_LINK', username: 'agent' });
    expect(a).toEqual({ name: 'resetPassword', username: 'agent' });
    const b = authReducer(a, { type: 'CODE_REQUESTED', username: 'agent' });
    expect(b).toEqual({ name: 'forgotPassword', username: 'agent' });
    expect(authReducer(b, { type: 'PASSWORD_RESET_DONE' })).toMatchObject({
      name: 'signIn',
      username: 'agent',
    });
  });
  it('any data code 401 enters passwordResetRequired, which a sign-in or 401 does not leave', () => {
    const s = run({ name: 'signedIn' }, { type: 'DATA_CODE_401' });
    expect(s).toEqual({ name: 'passwordResetRequired' });
    expect(authReducer(s, { type: 'SIGNED_IN' })).toBe(s);
    expect(authReducer(s, { type: 'UNAUTHENTICATED' })).toBe(s);
  });
  it('an unauthenticated whoami sets Unauthenticated', () => {
    expect(run({ name: 'signedIn' }, { type: 'UNAUTHENTICATED' })).toEqual({
      name: 'Unauthenticated',
      error: undefined,
    });
  });
  it('ignores transitions that do not belong to the state', () => {
    expect(run({ name: 'signIn' }, { type: 'CODE_REQUESTED', username: 'x' })).toEqual({ name: 'signIn' });
    expect(run({ name: 'signIn' }, { type: 'PASSWORD_RESET_DONE' })).toEqual({ name: 'signIn' });
  });
  it('query parameters preload the username into the reset forms', () => {
    expect(initialFormFromQuery('?user_pass_reset=agent')).toEqual({
      name: 'resetPassword',
      username: 'agent',
    });
    expect(initialFormFromQuery('?force_pass_reset=%20agent%20')).toEqual({
      name: 'forgotPassword',
      username: 'agent',
    });
    expect(initialFormFromQuery('')).toEqual({ name: 'signIn' });
  });
  it('reads the single sign-on token from ?sso_token=', () => {
    expect(ssoTokenFromQuery('?sso_token=abc')).toBe('abc');
    expect(ssoTokenFromQuery('?x=1')).toBeNull();
  });
});
