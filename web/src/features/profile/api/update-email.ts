import type { MessageResult } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Edit-email call of one's own profile: POST /users/users/{id}/email. */
export function updateEmail({ userId, email }: { userId: number; email: string }) {
  return api.post<MessageResult>(`users/users/${userId}/email`, { email: email.trim() });
}

export function useUpdateEmail() {
  return useMutation({ mutationFn: updateEmail });
}
