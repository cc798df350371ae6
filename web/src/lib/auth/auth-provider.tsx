import type { TokenResponse } from '@portal/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { api, setApiHooks } from '../api-client';
import { ApiError, detail, WHOAMI_HTML_ERROR } from '../errors';
import { clearImpersonation } from '../impersonation';
import { clearSelectedMerchant } from '../merchant-selection';
import { releasePendingCasePatch } from '../case-patch';
import { getWhoamiQueryOptions, signOutCall, whoamiQueryKey } from './auth-api';
import { AuthContext, type AuthContextValue } from './auth-context';
import { dropTokens, keepTokens, refreshSession } from './session';
import { authReducer, initialFormFromQuery, ssoTokenFromQuery, SSO_QUERY_PARAM } from './auth-machine';
import {
  endSessionAndDestination,
  exchangeSamlCode,
  rememberSignInMethod,
  samlCallbackFromLocation,
} from './saml';

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(authReducer, { name: 'starting' });
  const refreshToken = refreshSession;

  const completeSignIn = useCallback((tokens: TokenResponse) => {
    keepTokens(tokens);
    dispatch({ type: 'SIGNED_IN' });
  }, []);

  const endLocalSession = useCallback(() => {
    dropTokens();
    clearImpersonation();
    clearSelectedMerchant();
    queryClient.clear();
  }, [queryClient]);

  const signOut = useCallback(async () => {
    // Spec 4.2: release the cases the user still has open before the session ends.
    await releasePendingCasePatch();
    // Spec 4.2: to the single sign-on logout URL after a SAML session, else the root (with the back-door flag
    // after a back-door sign-in); a full load starts the app clean.
    const destination = await endSessionAndDestination(signOutCall);
    endLocalSession();
    window.location.assign(destination);
  }, [endLocalSession]);

  // API client hooks: forced update on data code 401, refresh on 401, else Unauthenticated.
  useEffect(() => {
    setApiHooks({
      onForcedUpdate: () => dispatch({ type: 'DATA_CODE_401' }),
      onUnauthenticated: () => {
        endLocalSession();
        dispatch({ type: 'UNAUTHENTICATED' });
      },
      refresh: refreshToken,
    });
  }, [endLocalSession, refreshToken]);

  // Start: single sign-on by query parameter, else a silent sign-in through the refresh cookie.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // SAML (issue 16): the ACS sent the browser here with a one-time code, or a refusal.
    const saml = samlCallbackFromLocation(window.location);
    if (saml) {
      window.history.replaceState(null, '', '/');
      if ('error' in saml) {
        dispatch({ type: 'UNAUTHENTICATED', error: saml.error });
        return;
      }
      dispatch({ type: 'SSO_STARTED' });
      exchangeSamlCode(saml.code)
        .then(({ return_to, ...tokens }) => {
          rememberSignInMethod('saml');
          window.history.replaceState(null, '', return_to);
          completeSignIn(tokens);
        })
        .catch((e: unknown) => dispatch({ type: 'UNAUTHENTICATED', error: detail(e) }));
      return;
    }
    const sso = ssoTokenFromQuery(window.location.search);
    if (sso) {
      dispatch({ type: 'SSO_STARTED' });
      const url = new URL(window.location.href);
      url.searchParams.delete(SSO_QUERY_PARAM);
      window.history.replaceState(null, '', url.pathname + url.search + url.hash);
      api
        .post<TokenResponse>('users/auth/artego', { token: sso }, { anonymous: true })
        .then(completeSignIn)
        .catch((e: unknown) =>
          dispatch({ type: 'UNAUTHENTICATED', error: `Issue logging in: ${detail(e)}` }),
        );
      return;
    }
    void refreshToken().then((ok) => {
      if (ok) dispatch({ type: 'SIGNED_IN' });
      else dispatch({ type: 'NO_SESSION', initial: initialFormFromQuery(window.location.search) });
    });
  }, [completeSignIn, refreshToken]);

  const profileQuery = useQuery({ ...getWhoamiQueryOptions(), enabled: state.name === 'signedIn' });

  // whoami failures: HTML reply signs out with its message; a user who must update goes to the forced form.
  useEffect(() => {
    const err = profileQuery.error;
    if (err instanceof ApiError && err.message === WHOAMI_HTML_ERROR) {
      void signOutCall().catch(() => undefined);
      endLocalSession();
      dispatch({ type: 'UNAUTHENTICATED', error: WHOAMI_HTML_ERROR });
    }
  }, [profileQuery.error, endLocalSession]);
  useEffect(() => {
    if (profileQuery.data?.must_update_password) dispatch({ type: 'DATA_CODE_401' });
  }, [profileQuery.data]);

  const refreshProfile = useCallback(async () => {
    await queryClient.invalidateQueries();
    await queryClient.refetchQueries({ queryKey: whoamiQueryKey });
  }, [queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      state,
      dispatch,
      profile: state.name === 'signedIn' ? (profileQuery.data ?? null) : null,
      completeSignIn,
      signOut,
      refreshProfile,
      refreshToken,
    }),
    [state, profileQuery.data, completeSignIn, signOut, refreshProfile, refreshToken],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
