import { Button, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Notice } from '../../../components/notice';
import { useAuth } from '../../../lib/auth/auth-context';
import { detail } from '../../../lib/errors';
import { useCompleteNewPassword } from '../api/complete-new-password';
import { PasswordFields, passwordsValid } from './password-fields';
import { LoginInsteadLink, SignedOutLayout } from './signed-out-layout';

/** New password required at first sign-in (confirmSignUp). */
export function NewPasswordForm({ username, session }: { username: string; session: string }) {
  const { dispatch, completeSignIn } = useAuth();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const complete = useCompleteNewPassword();
  const valid = passwordsValid(password, confirm, username);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    complete.mutate(
      { session, new_password: password.trim() },
      {
        onSuccess: (tokens) => {
          // confirmSignUp returns to signIn, which the challenge's tokens complete at once.
          dispatch({ type: 'NEW_PASSWORD_SET' });
          completeSignIn(tokens);
        },
      },
    );
  };

  return (
    <SignedOutLayout title="New Password Required" testId="new-password-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text color="fg.muted">This is your first sign-in: please choose a new password.</Text>
          {complete.isError && (
            <Notice status="error">{`Problem changing password: ${detail(complete.error)}`}</Notice>
          )}
          <PasswordFields
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            username={username}
          />
          <Button type="submit" colorPalette="brand" disabled={!valid} loading={complete.isPending}>
            Create Password
          </Button>
          <LoginInsteadLink alignSelf="center" />
        </Stack>
      </form>
    </SignedOutLayout>
  );
}
