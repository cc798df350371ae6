import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { useAuth } from '../../../lib/auth/auth-context';
import { detail } from '../../../lib/errors';
import { useConfirmForgotPassword } from '../api/confirm-forgot-password';
import { useForgotPassword } from '../api/forgot-password';
import { PasswordFields, passwordsValid } from './password-fields';
import { LoginInsteadLink, SignedOutLayout } from './signed-out-layout';
import { USERNAME_EMPTY } from './sign-in-form';

export const CODE_EMPTY = 'Verification code cannot be empty.';

/** Forgot password: the mailed code plus the new password and its confirmation. */
export function ForgotPasswordForm({ initialUsername }: { initialUsername: string }) {
  const { dispatch } = useAuth();
  const [username, setUsername] = useState(initialUsername);
  const [code, setCode] = useState('');
  const [codeTouched, setCodeTouched] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const confirmReset = useConfirmForgotPassword();
  const resend = useForgotPassword();
  const u = username.trim();
  const c = code.trim();
  const valid = !!u && !!c && passwordsValid(password, confirm, u);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCodeTouched(true);
    if (!valid) return;
    confirmReset.mutate(
      { username: u, code: c, new_password: password.trim() },
      { onSuccess: () => dispatch({ type: 'PASSWORD_RESET_DONE' }) },
    );
  };

  return (
    <SignedOutLayout title="Reset Password" testId="forgot-password-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text color="fg.muted">
            If the account exists, a verification code was sent to its e-mail address. Enter it with your new
            password.
          </Text>
          {confirmReset.isError && (
            <Notice status="error">{`Problem changing password: ${detail(confirmReset.error)}`}</Notice>
          )}
          {!initialUsername && (
            <TextField
              label="Username"
              name="username"
              value={username}
              onChange={setUsername}
              error={!u ? USERNAME_EMPTY : null}
            />
          )}
          <TextField
            label="Verification Code"
            name="code"
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={(v) => {
              setCode(v);
              setCodeTouched(true);
            }}
            error={codeTouched && !c ? CODE_EMPTY : null}
          />
          <PasswordFields
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            username={u}
          />
          <Button type="submit" colorPalette="brand" disabled={!valid} loading={confirmReset.isPending}>
            Change Password
          </Button>
          <Stack direction="row" justify="space-between">
            <Link as="button" color="brand.fg" onClick={() => u && resend.mutate({ username: u })}>
              Resend Code
            </Link>
            <LoginInsteadLink />
          </Stack>
        </Stack>
      </form>
    </SignedOutLayout>
  );
}
