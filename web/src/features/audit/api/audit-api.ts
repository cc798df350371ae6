import type { AuditList, UserItem, UserList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, saveBlob } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export interface AuditFilters {
  userId?: number;
  method?: string;
  target?: string;
  /** `from|to`, UTC days. */
  dateRange?: string;
}

const params = (f: AuditFilters) => ({
  user_id: f.userId,
  method: f.method,
  target: f.target,
  date_range: f.dateRange,
});

/** GET /users/audit: newest first, paged on the server. */
export function listAudit(f: AuditFilters, page: { start: number; limit: number }) {
  return api.get<AuditList>('users/audit', { ...params(f), start: page.start, limit: page.limit });
}

/** GET /users/audit.csv with the same filters, saved as a file. */
export async function exportAudit(f: AuditFilters): Promise<void> {
  const { blob, filename } = await api.download('users/audit.csv', params(f));
  if (blob) saveBlob(blob, filename);
}

/** The users the caller may see (the same scope as the audit rows), for the user filter. */
export async function listAuditUsers(): Promise<Pick<UserItem, 'id' | 'username'>[]> {
  const r = await api.get<UserList>('users/users', { start: 0, limit: 1000 });
  return r.data
    .map((u) => ({ id: u.id, username: u.username }))
    .sort((a, b) => a.username.localeCompare(b.username));
}

export function getAuditUsersQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.audit, 'users'] as const,
    queryFn: listAuditUsers,
    staleTime: 60_000,
  });
}

export function useAuditUsers() {
  return useQuery(getAuditUsersQueryOptions());
}
