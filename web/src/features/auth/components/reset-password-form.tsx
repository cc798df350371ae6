import { Button, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { useAuth } from '../../../lib/auth/auth-context';
import { detail } from '../../../lib/errors';
import { useForgotPassword } from '../api/forgot-password';
import { LoginInsteadLink, SignedOutLayout } from './signed-out-layout';
import { USERNAME_EMPTY } from './sign-in-form';

/** Reset password: asks for the username and mails a code. */
export function ResetPasswordForm({ initialUsername }: { initialUsername: string }) {
  const { dispatch } = useAuth();
  const [username, setUsername] = useState(initialUsername);
  const [touched, setTouched] = useState(false);
  const forgot = useForgotPassword();
  const u = username.trim();
  const usernameError = touched && !u ? USERNAME_EMPTY : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!u) return;
    forgot.mutate({ username: u }, { onSuccess: () => dispatch({ type: 'CODE_REQUESTED', username: u }) });
  };

  return (
    <SignedOutLayout title="Reset Password" testId="reset-password-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text color="fg.muted">Enter your username and we will e-mail you a verification code.</Text>
          {forgot.isError && <Notice status="error">{detail(forgot.error)}</Notice>}
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={(v) => {
              setUsername(v);
              setTouched(true);
            }}
            error={usernameError}
          />
          <Button type="submit" colorPalette="brand" loading={forgot.isPending}>
            Send Code
          </Button>
          <LoginInsteadLink alignSelf="center" />
        </Stack>
      </form>
    </SignedOutLayout>
  );
}
