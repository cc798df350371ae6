import {
  SAML_BACKDOOR_PARAM,
  SAML_CALLBACK_PATH,
  SAML_MESSAGES,
  type SamlLogoutResponse,
  type SamlTokenResponse,
  type TenantBootstrap,
} from '@portal/contracts';
import { api, buildUrl } from '../api-client';

/**
 * SAML sign-in in the browser (issue 16). The IdP posts to the server's ACS,
 * which sends the browser to /saml/callback?code=... (or ?error=...); the app
 * exchanges the code (POST users/auth/saml/token) for the normal session and
 * goes to the page the sign-in started from. How the session began is kept
 * for sign-out (spec 1 §4.2): a SAML session goes to the IdP's logout URL, a
 * back-door (password) session on a SAML site back to /?backdoor=1.
 */
export type SamlCallback = { code: string } | { error: string };

const ERRORS: Record<string, string> = {
  invalid: SAML_MESSAGES.invalidResponse,
  no_user: SAML_MESSAGES.noUser,
  not_federated: SAML_MESSAGES.notFederated,
  inactive: SAML_MESSAGES.inactive,
  return_path: SAML_MESSAGES.returnPath,
  not_configured: SAML_MESSAGES.notConfigured,
};

export function samlCallbackFromLocation(loc: Pick<Location, 'pathname' | 'search'>): SamlCallback | null {
  if (loc.pathname !== SAML_CALLBACK_PATH) return null;
  const q = new URLSearchParams(loc.search);
  const code = q.get('code');
  if (code) return { code };
  return { error: ERRORS[q.get('error') ?? ''] ?? SAML_MESSAGES.invalidResponse };
}

export function exchangeSamlCode(code: string): Promise<SamlTokenResponse> {
  return api.post<SamlTokenResponse>('users/auth/saml/token', { code }, { anonymous: true });
}

/** The URL that starts SAML sign-in, coming back to `returnTo` (a path of this site). */
export function samlLoginUrl(returnTo: string): string {
  return buildUrl(
    'users/auth/saml/login',
    returnTo && returnTo !== '/' ? { return_to: returnTo } : undefined,
  );
}

/** True when the entry URL carries the back-door flag (?backdoor=1, any value but 0/false). */
export function hasBackdoorFlag(search: string): boolean {
  const v = new URLSearchParams(search).get(SAML_BACKDOOR_PARAM);
  return v !== null && v !== '0' && v !== 'false';
}

/** Whether the password form shows on this tenant's sign-in page. */
export function passwordFormShown(tenant: TenantBootstrap, search: string): boolean {
  const mode = tenant.saml?.password_login;
  if (!mode || mode === 'shown') return true;
  return mode === 'backdoor' && hasBackdoorFlag(search);
}

const METHOD_KEY = 'portal.signin_method';
type Method = 'saml' | 'backdoor';

export function rememberSignInMethod(method: Method | null): void {
  try {
    if (method) sessionStorage.setItem(METHOD_KEY, method);
    else sessionStorage.removeItem(METHOD_KEY);
  } catch {
    // storage off: sign-out then goes to the root
  }
}

function signInMethod(): Method | null {
  try {
    const v = sessionStorage.getItem(METHOD_KEY);
    return v === 'saml' || v === 'backdoor' ? v : null;
  } catch {
    return null;
  }
}

/**
 * Ends the session on the server and answers where the browser goes: the
 * IdP's logout URL after a SAML session, the root with the back-door flag
 * after a back-door session, else the root.
 */
export async function endSessionAndDestination(plainSignOut: () => Promise<void>): Promise<string> {
  const method = signInMethod();
  rememberSignInMethod(null);
  if (method === 'saml') {
    try {
      const out = await api.post<SamlLogoutResponse>('users/auth/saml/logout', undefined, {
        anonymous: true,
      });
      return out.redirect_url ?? '/';
    } catch {
      return '/';
    }
  }
  try {
    await plainSignOut();
  } catch {
    // the local session ends anyway
  }
  return method === 'backdoor' ? `/?${SAML_BACKDOOR_PARAM}=1` : '/';
}
