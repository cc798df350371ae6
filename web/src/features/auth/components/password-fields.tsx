import { Icon, List, Stack } from '@chakra-ui/react';
import { Check, X } from 'lucide-react';
import { checkPassword, PASSWORDS_DIFFER_MESSAGE } from '../../../lib/password-rules';
import { TextField } from '../../../components/text-field';

/** New password + confirmation, validated as the user types, with the rule checklist. */
export function PasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  username,
  extraError,
}: {
  password: string;
  confirm: string;
  onPassword: (v: string) => void;
  onConfirm: (v: string) => void;
  username: string;
  extraError?: string | null;
}) {
  const check = checkPassword(password.trim(), confirm.trim(), username);
  const confirmError = confirm.length > 0 && !check.matches ? PASSWORDS_DIFFER_MESSAGE : null;
  return (
    <Stack gap="3">
      <TextField
        label="New Password"
        name="new_password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPassword}
        error={extraError ?? null}
      />
      {password.length > 0 && (
        <List.Root gap="1" variant="plain" data-testid="password-rules" fontSize="sm">
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
        onChange={onConfirm}
        error={confirmError}
      />
    </Stack>
  );
}

export function passwordsValid(password: string, confirm: string, username: string): boolean {
  const c = checkPassword(password.trim(), confirm.trim(), username);
  return c.valid && c.matches;
}
