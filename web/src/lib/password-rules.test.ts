import { describe, expect, it } from 'vitest';
import { checkPassword } from './password-rules';

describe('password rules (spec 1 §5)', () => {
  const failing = (p: string, u = '') =>
    checkPassword(p, p, u)
      .rules.filter((r) => !r.ok)
      .map((r) => r.id);

  it('accepts a password meeting every rule', () => {
    expect(checkPassword('Chargeback#2026', 'Chargeback#2026', 'admin')).toMatchObject({
      valid: true,
      matches: true,
    });
  });
  it('needs 8 to 25 characters', () => {
    expect(failing('Ab#1xyz')).toEqual(['length']);
    expect(failing('Ab#1' + 'x'.repeat(22))).toEqual(['length']);
    expect(failing('Ab#1' + 'x'.repeat(21))).toEqual([]);
  });
  it('needs a digit, a capital, a lowercase letter and a special character', () => {
    expect(failing('Abcdefg#')).toEqual(['digit']);
    expect(failing('abcdef#1')).toEqual(['upper']);
    expect(failing('ABCDEF#1')).toEqual(['lower']);
    expect(failing('Abcdefg1')).toEqual(['special']);
  });
  it('must not equal or contain the username (case-insensitive)', () => {
    expect(failing('Merchant.User#1', 'merchant.user')).toEqual(['username']);
    expect(failing('merchant.user', 'merchant.user')).toContain('username');
  });
  it('confirm must match', () => {
    expect(checkPassword('Chargeback#2026', 'Chargeback#2027').matches).toBe(false);
    expect(checkPassword('', '').matches).toBe(false);
  });
});
