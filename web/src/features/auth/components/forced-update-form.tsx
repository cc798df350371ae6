import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { useAuth } from '../../../lib/auth/auth-context';
import { ApiError, detail, hasDataCode401, RESET_PASSWORD_ERROR } from '../../../lib/errors';
import { SAME_PASSWORD_MESSAGE } from '../../../lib/password-rules';
import { changePassword } from '../api/change-password';
import { passwordUpdated } from '../api/password-updated';
import { PasswordFields, passwordsValid } from './password-fields';
import { SignedOutLayout } from './signed-out-layout';

/** Forced password update (passwordResetRequired): ends with a page reload once the password-updated call succeeds. */
export function ForcedUpdateForm({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const { signOut } = useAuth();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cur = current.trim();
  const same = !!cur && cur === password.trim();
  const valid = !!cur && !same && passwordsValid(password, confirm, '');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setBusy(true);
    setError(null);
    try {
      await changePassword({ current_password: cur, new_password: password.trim() });
    } catch (err) {
      setError(`Problem changing password: ${detail(err)}`);
      setBusy(false);
      return;
    }
    try {
      await passwordUpdated();
      reload();
    } catch (err) {
      setError(
        err instanceof ApiError && hasDataCode401(err.body)
          ? RESET_PASSWORD_ERROR
          : `Problem changing password: ${detail(err)}`,
      );
      setBusy(false);
    }
  };

  return (
    <SignedOutLayout title="Update Password" testId="forced-update-form">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="4">
          <Text color="fg.muted">Your password must be updated before you can continue.</Text>
          {error && (
            <Notice status="error" testId="forced-update-error">
              {error}
            </Notice>
          )}
          <TextField
            label="Current Password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={setCurrent}
          />
          <PasswordFields
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            username=""
            extraError={same ? SAME_PASSWORD_MESSAGE : null}
          />
          <Button type="submit" colorPalette="brand" disabled={!valid} loading={busy}>
            Update Password
          </Button>
          <Link as="button" alignSelf="center" color="brand.fg" onClick={() => void signOut()}>
            Sign Out
          </Link>
        </Stack>
      </form>
    </SignedOutLayout>
  );
}
