import { Button, Link, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { useAuth } from '../../../lib/auth/auth-context';
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
          else completeSignIn(res);
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
        </Stack>
      </form>
    </SignedOutLayout>
  );
}
