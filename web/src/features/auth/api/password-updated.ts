import { api } from '../../../lib/api-client';

/** POST users/pass/updated after a forced update: success, or code 401. */
export function passwordUpdated(): Promise<unknown> {
  return api.post<unknown>('users/pass/updated');
}
