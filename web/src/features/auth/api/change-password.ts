import { api } from '../../../lib/api-client';

/** POST users/auth/password (signed in). */
export function changePassword(body: { current_password: string; new_password: string }): Promise<void> {
  return api.post<void>('users/auth/password', body);
}
