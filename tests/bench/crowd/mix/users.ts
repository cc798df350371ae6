import { DEMO_PASSWORD, DEMO_TENANTS, LIVE_MAX_CONNECTIONS_PER_USER } from '@portal/contracts';
import type { SimUser } from '../types';

/**
 * The simulated people: the demo accounts of both tenants (README 'Demo
 * accounts', less federated, newpass and forcereset), weighted as a tenant's
 * users are (mostly agents and merchant users, a few admins). Every
 * simulated user holds a live stream and the gateway allows 5 per account
 * (LIVE_MAX_CONNECTIONS_PER_USER), so an account carries at most 5 of them:
 * 16 accounts, 80 simulated users at most.
 */
export const ACCOUNT_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['agent', 6],
  ['merchant.user', 6],
  ['manager', 2],
  ['merchant.admin', 2],
  ['partner.user', 2],
  ['partner.admin', 1],
  ['admin', 1],
  ['readonly', 1],
];

export const USERS_PER_ACCOUNT = LIVE_MAX_CONNECTIONS_PER_USER;
export const MAX_SIMULATED_USERS = DEMO_TENANTS.length * ACCOUNT_WEIGHTS.length * USERS_PER_ACCOUNT;

export function makeUsers(count: number): SimUser[] {
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`makeUsers: count must be a positive integer, not ${count}`);
  if (count > MAX_SIMULATED_USERS)
    throw new Error(
      `makeUsers: ${count} simulated users need more than ${USERS_PER_ACCOUNT} live streams on some demo account ` +
        `(the gateway's per-user limit); the ${DEMO_TENANTS.length * ACCOUNT_WEIGHTS.length} demo accounts carry ${MAX_SIMULATED_USERS} at most`,
    );
  const accounts = DEMO_TENANTS.flatMap((t) =>
    ACCOUNT_WEIGHTS.map(([username, weight]) => ({ tenant: t.id, username, weight, users: 0 })),
  );
  // Highest averages (D'Hondt): each next user goes to the account most under its share, within the cap.
  for (let i = 0; i < count; i++) {
    let best: (typeof accounts)[number] | undefined;
    for (const a of accounts) {
      if (a.users >= USERS_PER_ACCOUNT) continue;
      if (!best || a.weight / (a.users + 1) > best.weight / (best.users + 1)) best = a;
    }
    best!.users++;
  }
  // Interleaved, so that the first users of the list already span tenants and roles.
  const users: SimUser[] = [];
  for (let round = 0; round < USERS_PER_ACCOUNT; round++)
    for (const a of accounts)
      if (a.users > round)
        users.push({ tenant: a.tenant, username: a.username, password: DEMO_PASSWORD, memory: {} });
  return users;
}
