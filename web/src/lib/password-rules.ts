/** Password policy of spec 1 §5: 8-25 characters, digit, capital, lowercase, special, not the username. */
export interface PasswordRule {
  id: string;
  text: string;
  test: (password: string, username: string) => boolean;
}

export const PASSWORD_RULES: readonly PasswordRule[] = [
  { id: 'length', text: 'Between 8 and 25 characters', test: (p) => p.length >= 8 && p.length <= 25 },
  { id: 'digit', text: 'At least one number', test: (p) => /\d/.test(p) },
  { id: 'upper', text: 'At least one capital letter', test: (p) => /[A-Z]/.test(p) },
  { id: 'lower', text: 'At least one lowercase letter', test: (p) => /[a-z]/.test(p) },
  { id: 'special', text: 'At least one special character', test: (p) => /[^A-Za-z0-9]/.test(p) },
  {
    id: 'username',
    text: 'Must not contain the username',
    test: (p, u) => {
      const name = u.trim().toLowerCase();
      return !name || !p.toLowerCase().includes(name);
    },
  },
];

export interface PasswordCheck {
  rules: { id: string; text: string; ok: boolean }[];
  valid: boolean;
  matches: boolean;
}

/** Validates a new password and its confirmation as the user types. */
export function checkPassword(password: string, confirm: string, username = ''): PasswordCheck {
  const rules = PASSWORD_RULES.map((r) => ({ id: r.id, text: r.text, ok: r.test(password, username) }));
  return { rules, valid: rules.every((r) => r.ok), matches: password.length > 0 && password === confirm };
}

export const SAME_PASSWORD_MESSAGE = 'Current password and new password cannot be the same.';
export const PASSWORDS_DIFFER_MESSAGE = 'Passwords do not match.';
