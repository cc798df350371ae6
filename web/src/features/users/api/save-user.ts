import type { CreateUserBody, UpdateUserBody, UserItem } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The form layer's fields (spec 3 §7: firstName, lastName, email, username, role, merchantId, isReadOnly). */
export interface UserFormValues {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  role: number;
  merchantId: number | null;
  isReadOnly: boolean;
}

/** POST /users/users (new users: status 1, groups [0]) or PATCH /users/users/{id}. */
export function saveUser({ id, values }: { id: number | null; values: UserFormValues }) {
  if (id === null) {
    const body: CreateUserBody = {
      fname: values.firstName.trim(),
      lname: values.lastName.trim(),
      username: values.username.trim(),
      email: values.email.trim(),
      role: values.role,
      merchant: values.merchantId ?? 0,
      groups: [0],
      status: 1,
      is_read_only: values.isReadOnly,
    };
    return api.post<UserItem>('users/users', body);
  }
  const body: UpdateUserBody = {
    fname: values.firstName.trim(),
    lname: values.lastName.trim(),
    email: values.email.trim(),
    role: values.role,
    ...(values.merchantId !== null ? { merchant: values.merchantId } : {}),
    is_read_only: values.isReadOnly,
  };
  return api.patch<UserItem>(`users/users/${id}`, body);
}

export function useSaveUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveUser,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryRoots.users }),
  });
}
