import type { UserProfile } from '@portal/contracts';

/** Page roles after individual allows and denies (as the gateway decides them). */
export function hasResource(profile: UserProfile, alias: string): boolean {
  if (profile.deny_resources.includes(alias)) return false;
  return profile.allow_resources.includes(alias) || profile.resources.some((r) => r.alias === alias);
}
