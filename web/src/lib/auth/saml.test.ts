import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TenantBootstrap } from '@portal/contracts';
import {
  endSessionAndDestination,
  hasBackdoorFlag,
  passwordFormShown,
  rememberSignInMethod,
  samlCallbackFromLocation,
  samlLoginUrl,
} from './saml';

const tenant = (saml?: TenantBootstrap['saml']) => ({ saml }) as TenantBootstrap;

describe('SAML in the browser (issue 16)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('reads the callback: a code, a known refusal, anything else as invalid; other pages are no callback', () => {
    expect(samlCallbackFromLocation({ pathname: '/saml/callback', search: '?code=abc' })).toEqual({
      code: 'abc',
    });
    expect(samlCallbackFromLocation({ pathname: '/saml/callback', search: '?error=no_user' })).toEqual({
      error: 'No account matches your single sign-on identity. Please contact your administrator.',
    });
    expect(samlCallbackFromLocation({ pathname: '/saml/callback', search: '?error=<b>x</b>' })).toEqual({
      error: 'The single sign-on response is invalid or has expired. Please sign in again.',
    });
    expect(samlCallbackFromLocation({ pathname: '/dashboard', search: '?code=abc' })).toBeNull();
  });

  it('shows the password form as the tenant says, the back-door only with the flag', () => {
    expect(passwordFormShown(tenant(), '')).toBe(true);
    expect(passwordFormShown(tenant({ password_login: 'shown', logout_url: null }), '')).toBe(true);
    expect(passwordFormShown(tenant({ password_login: 'backdoor', logout_url: null }), '')).toBe(false);
    expect(passwordFormShown(tenant({ password_login: 'backdoor', logout_url: null }), '?backdoor=1')).toBe(
      true,
    );
    expect(passwordFormShown(tenant({ password_login: 'off', logout_url: null }), '?backdoor=1')).toBe(false);
    expect(hasBackdoorFlag('?backdoor=0')).toBe(false);
  });

  it('starts sign-in with the current page as return path (none for the root)', () => {
    expect(samlLoginUrl('/chargebacks')).toBe('/api/users/auth/saml/login?return_to=%2Fchargebacks');
    expect(samlLoginUrl('/')).toBe('/api/users/auth/saml/login');
  });

  it('signs out to the IdP after SAML, to /?backdoor=1 after the back-door, else to the root', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.includes('saml/logout')
        ? new Response(JSON.stringify({ redirect_url: 'https://idp.test/logout' }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          })
        : new Response(null, { status: 204 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const plain = vi.fn(async () => undefined);
    rememberSignInMethod('saml');
    expect(await endSessionAndDestination(plain)).toBe('https://idp.test/logout');
    expect(plain).not.toHaveBeenCalled();
    rememberSignInMethod('backdoor');
    expect(await endSessionAndDestination(plain)).toBe('/?backdoor=1');
    expect(await endSessionAndDestination(plain)).toBe('/');
    expect(plain).toHaveBeenCalledTimes(2);
  });
});
