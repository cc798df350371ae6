import { describe, expect, it } from 'vitest';
import { passwordViolations } from '../auth/passwords';
import { temporaryPassword } from './service';

describe('temporary passwords', () => {
  it('always meet the password policy and differ', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = temporaryPassword();
      expect(passwordViolations(p, 'someone')).toEqual([]);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });
});
