import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES, passwordViolations } from './passwords';

describe('password policy', () => {
  it('accepts a password meeting every rule', () => {
    expect(passwordViolations('Chargeback#2026', 'admin')).toEqual([]);
  });
  it('names each violated rule', () => {
    expect(passwordViolations('short', 'x')).toEqual([
      PASSWORD_MESSAGES.length,
      PASSWORD_MESSAGES.digit,
      PASSWORD_MESSAGES.upper,
      PASSWORD_MESSAGES.special,
    ]);
    expect(passwordViolations('A'.repeat(20) + 'a1#bcdef', 'x')).toContain(PASSWORD_MESSAGES.length);
  });
  it('refuses a password equal to or containing the username, in any case', () => {
    expect(passwordViolations('Mia.Admin#2026', 'mia.admin')).toEqual([PASSWORD_MESSAGES.username]);
    expect(passwordViolations('Xadmin#2026', 'ADMIN')).toEqual([PASSWORD_MESSAGES.username]);
  });
});
