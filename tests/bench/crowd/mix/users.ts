import { DEMO_PASSWORD, DEMO_TENANTS } from '@portal/contracts';
import type { SimUser } from '../types';

/**
 * The simulated people: copies of the demo accounts of both tenants (README
 * 'Demo accounts', less federated, newpass and forcereset), weighted as a
 * tenant's users are (mostly agents and merchant users, a few admins). Each
 * person has an account of their own (bench-accounts.ts creates them): a few
 * shared accounts would be people making hundreds of requests a second each
 * (the gateway limits an account to 15-20 a second and 5 live streams).
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

/** `count` people over both tenants and the roles by ACCOUNT_WEIGHTS (highest averages), named `<demo username>.b<n>`. */
export function crowdUsers(count: number): SimUser[] {
  const accounts = DEMO_TENANTS.flatMap((t) =>
    ACCOUNT_WEIGHTS.map(([username, weight]) => ({ tenant: t.id, username, weight, users: 0 })),
  );
  const users: SimUser[] = [];
  for (let i = 0; i < count; i++) {
    const best = accounts.reduce((a, b) => (b.weight / (b.users + 1) > a.weight / (a.users + 1) ? b : a));
    best.users++;
    users.push({
      tenant: best.tenant,
      username: `${best.username}.b${best.users}`,
      password: DEMO_PASSWORD,
      memory: {},
    });
  }
  return users;
}
