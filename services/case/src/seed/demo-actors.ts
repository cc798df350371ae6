import { DEMO_USERS, demoUserId, type DemoTenant } from '@portal/contracts';

/** A demo user as the screens' history rows name them: id and username (contracts/demo.ts). */
export interface DemoActor {
  id: number;
  username: string;
}

/** The demo user of this username in the tenant; throws when demo.ts has none (a seed bug). */
export function demoActor(tenant: DemoTenant, username: string): DemoActor {
  const user = DEMO_USERS.find((u) => u.username === username);
  if (!user) throw new Error(`DEMO_USERS has no '${username}'`);
  return { id: demoUserId(tenant, user), username: user.username };
}

/** The provider staff who work the screens' queues day to day: manager, agent, admin. */
export function demoStaff(tenant: DemoTenant): DemoActor[] {
  return ['manager', 'agent', 'admin'].map((u) => demoActor(tenant, u));
}
