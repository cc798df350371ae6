import { Box, Button, Heading, Icon, List, Stack } from '@chakra-ui/react';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { TextField } from '../../../components/text-field';
import { toaster } from '../../../components/toaster';
import { useAuth, useProfile } from '../../../lib/auth/auth-context';
import { GENERIC_ERROR } from '../../../lib/errors';
import { checkPassword, PASSWORDS_DIFFER_MESSAGE, SAME_PASSWORD_MESSAGE } from '../../../lib/password-rules';
import { useChangeOwnPassword } from '../api/change-password';
import { PROFILE_TEXT } from '../api/profile-messages';
import { useUpdateEmail } from '../api/update-email';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** User Settings (spec 3 §2 Profile): email (not for federated users) and password with the policy. */
export function UserSettings() {
  const me = useProfile();
  const { refreshProfile } = useAuth();
  const [email, setEmail] = useState(me.email);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const saveEmail = useUpdateEmail();
  const changePassword = useChangeOwnPassword();
  const emailValid = EMAIL.test(email.trim());
  const emailDisabled = me.is_federated || me.is_read_only;
  const check = checkPassword(next.trim(), confirm.trim(), me.username);
  const same = current.length > 0 && current.trim() === next.trim();
  const passwordReady = current.trim().length > 0 && check.valid && check.matches && !same;

  function submitEmail() {
    saveEmail.mutate(
      { userId: me.id, email },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: PROFILE_TEXT.emailSaved });
          void refreshProfile();
        },
        onError: () => toaster.create({ type: 'error', title: PROFILE_TEXT.emailFailed }),
      },
    );
  }

  function submitPassword() {
    changePassword.mutate(
      { current_password: current.trim(), new_password: next.trim() },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: PROFILE_TEXT.passwordSaved });
          setCurrent('');
          setNext('');
          setConfirm('');
        },
        onError: (e) =>
          toaster.create({
            type: 'error',
            title: e.message && e.message !== GENERIC_ERROR ? e.message : PROFILE_TEXT.passwordFailed,
          }),
      },
    );
  }

  return (
    <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 3, md: 5 }} data-testid="user-settings">
      <Heading size="md" mb="3">
        User Settings
      </Heading>
      <Stack gap="5">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (emailValid && !emailDisabled) submitEmail();
          }}
          noValidate
        >
          <Stack gap="2" maxW="md">
            <TextField
              label="Email"
              name="profile-email"
              type="email"
              value={email}
              onChange={setEmail}
              disabled={me.is_federated}
              error={email.length > 0 && !emailValid ? PROFILE_TEXT.emailInvalid : null}
              helper={me.is_federated ? 'Your email is managed by single sign-on.' : undefined}
            />
            <Box>
              <Button
                type="submit"
                size="sm"
                colorPalette="brand"
                loading={saveEmail.isPending}
                disabled={!emailValid || emailDisabled || email.trim() === me.email}
                data-testid="save-email"
              >
                Update Email
              </Button>
            </Box>
          </Stack>
        </form>
        {!me.is_federated && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (passwordReady) submitPassword();
            }}
            noValidate
          >
            <Stack gap="2" maxW="md" data-testid="password-form">
              <TextField
                label="Current Password"
                name="current_password"
                type="password"
                autoComplete="current-password"
                value={current}
                onChange={setCurrent}
              />
              <TextField
                label="New Password"
                name="new_password"
                type="password"
                autoComplete="new-password"
                value={next}
                onChange={setNext}
                error={same ? SAME_PASSWORD_MESSAGE : null}
              />
              {next.length > 0 && (
                <List.Root gap="1" variant="plain" fontSize="sm" data-testid="password-rules">
                  {check.rules.map((r) => (
                    <List.Item key={r.id} data-ok={r.ok} color={r.ok ? 'green.600' : 'red.600'}>
                      <Icon size="sm" mr="2">
                        {r.ok ? <Check /> : <X />}
                      </Icon>
                      {r.text}
                    </List.Item>
                  ))}
                </List.Root>
              )}
              <TextField
                label="Confirm Password"
                name="confirm_password"
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={setConfirm}
                error={confirm.length > 0 && !check.matches ? PASSWORDS_DIFFER_MESSAGE : null}
              />
              <Box>
                <Button
                  type="submit"
                  size="sm"
                  colorPalette="brand"
                  loading={changePassword.isPending}
                  disabled={!passwordReady}
                  data-testid="save-password"
                >
                  Change Password
                </Button>
              </Box>
            </Stack>
          </form>
        )}
      </Stack>
    </Box>
  );
}
