import argon2 from 'argon2';

/**
 * argon2id with the OWASP minimum (19 MiB, 2 passes, 1 lane): about 40-50 ms a
 * verification on one core of the 2-core machines this runs on, so a sign-in
 * burst cannot starve the event loop's thread pool for long.
 */
const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

// A real hash of a random secret with the same parameters: verifying against it costs as much as a real check.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= argon2.hash(`dummy-${Math.random()}-${Date.now()}`, ARGON2_OPTIONS);
  return dummyHash;
}

/** Counts dummy verifications (tests assert the unknown-user path runs argon2). */
export const passwordStats = { dummyVerifications: 0 };

/**
 * Verifies a password; with no hash (unknown or federated user) it verifies
 * against a dummy hash anyway so the answer takes as long as for a real user.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    passwordStats.dummyVerifications += 1;
    await argon2.verify(await getDummyHash(), password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export const PASSWORD_MESSAGES = {
  length: 'Password must be between 8 and 25 characters.',
  digit: 'Password must contain at least one number.',
  upper: 'Password must contain at least one capital letter.',
  lower: 'Password must contain at least one lowercase letter.',
  special: 'Password must contain at least one special character.',
  username: 'Password cannot be or contain the username.',
  same: 'Current password and new password cannot be the same.',
} as const;

/** The spec's password policy (spec 1 §5): every violated rule, in a stable order. */
export function passwordViolations(password: string, username: string): string[] {
  const violations: string[] = [];
  if (password.length < 8 || password.length > 25) violations.push(PASSWORD_MESSAGES.length);
  if (!/[0-9]/.test(password)) violations.push(PASSWORD_MESSAGES.digit);
  if (!/[A-Z]/.test(password)) violations.push(PASSWORD_MESSAGES.upper);
  if (!/[a-z]/.test(password)) violations.push(PASSWORD_MESSAGES.lower);
  if (!/[^A-Za-z0-9]/.test(password)) violations.push(PASSWORD_MESSAGES.special);
  const name = username.trim().toLowerCase();
  if (name && password.toLowerCase().includes(name)) violations.push(PASSWORD_MESSAGES.username);
  return violations;
}
