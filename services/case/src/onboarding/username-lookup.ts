import { CallInTransactionError, ServiceClient, systemContext, type Logger } from '@portal/core';

/** Which usernames already exist in the tenant (lower case); the user service owns users. */
export type UsernameLookup = (tenant: string, usernames: string[]) => Promise<Set<string>>;

const CHUNK = 2000;

/**
 * Asks the user service (POST /users/internal/usernames-taken). When it cannot
 * answer, the check is skipped and logged: the finalize job creates each user
 * through the user service, which refuses a taken username and the job reports it.
 * Never call it inside a database transaction (issue 28): `withCheckedUsernames`
 * asks before the transaction opens.
 */
export function userServiceLookup(baseUrl: string, secret: string, log: Logger): UsernameLookup {
  const client = new ServiceClient(baseUrl, secret, 10_000);
  return async (tenant, usernames) => {
    const taken = new Set<string>();
    try {
      for (let i = 0; i < usernames.length; i += CHUNK) {
        const r = await client.request<{ taken: string[] }>(
          'POST',
          '/users/internal/usernames-taken',
          systemContext(tenant, `onboarding-${Date.now()}`),
          { usernames: usernames.slice(i, i + CHUNK) },
        );
        r.taken.forEach((u) => taken.add(u.toLowerCase()));
      }
    } catch (error) {
      // A call made inside a transaction is a bug to fix, not an outage to skip over.
      if (error instanceof CallInTransactionError) throw error;
      log.warn({ err: error }, 'onboarding: the user service could not check usernames; skipped');
    }
    return taken;
  };
}

const key = (username: string) => username.trim().toLowerCase();

/**
 * The user service's answer for a set of usernames, asked before the
 * transaction that validates a file. Inside the transaction the validation
 * only reads it; a username it was not asked about (a concurrent edit added
 * it between the read and the transaction) ends the transaction with
 * `UncheckedUsernames`, and `withCheckedUsernames` asks again and retries.
 */
export class CheckedUsernames {
  private readonly checked = new Set<string>();
  private readonly taken = new Set<string>();

  /** No lookup (tests of the SQL alone): every username counts as checked and free. */
  constructor(private readonly lookup?: UsernameLookup) {}

  async check(tenant: string, usernames: Iterable<string>): Promise<void> {
    const fresh = [...new Set([...usernames].map(key).filter((u) => u && !this.checked.has(u)))];
    if (!fresh.length) return;
    const taken = this.lookup ? await this.lookup(tenant, fresh) : new Set<string>();
    for (const u of fresh) this.checked.add(u);
    for (const u of taken) this.taken.add(key(u));
  }

  /** The taken ones among `usernames` (lower case); throws UncheckedUsernames for any not asked about. */
  takenAmong(usernames: Iterable<string>): Set<string> {
    const wanted = [...new Set([...usernames].map(key).filter(Boolean))];
    if (!this.lookup) return new Set();
    const missing = wanted.filter((u) => !this.checked.has(u));
    if (missing.length) throw new UncheckedUsernames(missing);
    return new Set(wanted.filter((u) => this.taken.has(u)));
  }
}

class UncheckedUsernames extends Error {
  constructor(readonly usernames: string[]) {
    super(`${usernames.length} username(s) were not checked before the transaction`);
    this.name = 'UncheckedUsernames';
  }
}

/**
 * Checks `initial` with the user service, then runs `inTransaction` (which
 * opens the transaction) with the answer; when the file turned out to hold
 * usernames not asked about, asks for those and runs it again (a few times).
 */
export async function withCheckedUsernames<T>(
  lookup: UsernameLookup | undefined,
  tenant: string,
  initial: Iterable<string>,
  inTransaction: (usernames: CheckedUsernames) => Promise<T>,
): Promise<T> {
  const usernames = new CheckedUsernames(lookup);
  await usernames.check(tenant, initial);
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(usernames);
    } catch (error) {
      if (!(error instanceof UncheckedUsernames) || attempt >= 3) throw error;
      await usernames.check(tenant, error.usernames);
    }
  }
}
