import type { UserProfile } from '@portal/contracts';
import { api } from '../../../lib/api-client';
import { clearImpersonation, landingAfterLoginAs, startImpersonation } from '../../../lib/impersonation';

/**
 * 'Login As' (spec 1 §4.4): store the selected user, then ask whoami as them
 * (the gateway checks who may impersonate whom). Answers where to go next; on
 * a refusal the stored selection is cleared and the error rethrown.
 */
export async function loginAs(user: { id: number; name: string }): Promise<string> {
  startImpersonation(user);
  try {
    const profile = await api.post<UserProfile>('users/whoami');
    return landingAfterLoginAs(profile.resources);
  } catch (e) {
    clearImpersonation();
    throw e;
  }
}
