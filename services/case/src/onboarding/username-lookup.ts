import { ServiceClient, systemContext, type Logger } from '@portal/core';

/** Which usernames already exist in the tenant (lower case); the user service owns users. */
export type UsernameLookup = (tenant: string, usernames: string[]) => Promise<Set<string>>;

const CHUNK = 2000;

/**
 * Asks the user service (POST /users/internal/usernames-taken). When it cannot
 * answer, the check is skipped and logged: the finalize job creates each user
 * through the user service, which refuses a taken username and the job reports it.
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
        r.taken.forEach((u) => taken.add(u));
      }
    } catch (error) {
      log.warn({ err: error }, 'onboarding: the user service could not check usernames; skipped');
    }
    return taken;
  };
}
