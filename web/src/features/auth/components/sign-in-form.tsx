import { Button, Link, Separator, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { useAuth } from '../../../lib/auth/auth-context';
import {
  hasBackdoorFlag,
  passwordFormShown,
  rememberSignInMethod,
  samlLoginUrl,
} from '../../../lib/auth/saml';
import { useTenant } from '../../../lib/tenant-config';
import { signInErrorMessage } from '../../../lib/errors';
import { useSignIn } from '../api/sign-in';
import { SignedOutLayout } from './signed-out-layout';

export const USERNAME_EMPTY = 'Username cannot be empty.';
export const PASSWORD_EMPTY = 'Password cannot be empty.';

export function SignInForm({
  notice,
  error: initialError,
  initialUsername = '',
}: {
  notice?: string;
  error?: string;
  initialUsername?: string;
}) {
  const { dispatch, completeSignIn } = useAuth();
  const [username, setUsername] = useState(initialUsername);
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ username: false, password: false });
  const [error, setError] = useState<string | null>(initialError ?? null);
  const signIn = useSignIn();
  const tenant = useTenant();
  // SAML tenants (issue 16): 'Sign in with SSO'; the password form only where the tenant keeps it, or
  // behind the back-door flag of the URL (spec 1 §2.1, §4.2).
  const search = window.location.search;
  const sso = tenant.saml !== undefined;
  const showPassword = passwordFormShown(tenant, search);
  const backdoor = sso && hasBackdoorFlag(search);

  const u = username.trim();
  const p = password.trim();
  const usernameError = touched.username && !u ? USERNAME_EMPTY : null;
  const passwordError = touched.password && !p ? PASSWORD_EMPTY : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched({ username: true, password: true });
    if (!u || !p) return;
    setError(null);
    signIn.mutate(
      { username: u, password: p },
      {
        onSuccess: (res) => {
          if ('challenge' in res)
            dispatch({ type: 'NEW_PASSWORD_REQUIRED', username: u, session: res.session });
          else {
            rememberSignInMethod(backdoor ? 'backdoor' : null);
            completeSignIn(res);
          }
        },
        onError: (err) => setError(signInErrorMessage(err)),
      },
    );
  };

  return (
    <SignedOutLayout title="Sign In" testId="sign-in-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          {notice && <Notice status="success">{notice}</Notice>}
          {error && (
            <Notice status="error" testId="sign-in-error">
              {error}
            </Notice>
          )}
          {sso && (
            <Button
              type="button"
              colorPalette="brand"
              variant={showPassword ? 'outline' : 'solid'}
              data-testid="sso-sign-in"
              onClick={() => window.location.assign(samlLoginUrl(window.location.pathname))}
            >
              Sign in with SSO
            </Button>
          )}
          {sso && showPassword && (
            <Stack direction="row" align="center" gap="3">
              <Separator flex="1" />
              <Text fontSize="sm" color="fg.muted">
                or
              </Text>
              <Separator flex="1" />
            </Stack>
          )}
          {showPassword && (
            <>
              <TextField
                label="Username"
                name="username"
                autoComplete="username"
                autoFocus
                value={username}
                onChange={(v) => {
                  setUsername(v);
                  setTouched((t) => ({ ...t, username: true }));
                }}
                error={usernameError}
              />
              <TextField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(v) => {
                  setPassword(v);
                  setTouched((t) => ({ ...t, password: true }));
                }}
                error={passwordError}
              />
              <Button type="submit" colorPalette="brand" loading={signIn.isPending} loadingText="Signing in">
                Sign In
              </Button>
              <Link
                as="button"
                alignSelf="center"
                color="brand.fg"
                onClick={() => dispatch({ type: 'FORGOT_LINK', username: u })}
              >
                Forgot your password?
              </Link>
            </>
          )}
        </Stack>
      </form>
    </SignedOutLayout>
  );
}
