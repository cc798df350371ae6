import { useQuery } from '@tanstack/react-query';
import { api, saveBlob } from '../../../lib/api-client';

/** One row of GET /users/audit (services/user/src/audit/audit-schemas.ts). */
export interface AuditItem {
  id: number;
  time: string;
  actor: { id: number; username: string | null } | null;
  user: { id: number; username: string | null } | null;
  impersonated: boolean;
  action: string;
  method: string | null;
  route: string | null;
  target_ids: Record<string, string>;
  status: number | null;
  request_id: string | null;
  ip: string | null;
}

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
  return api.get<{ data: AuditItem[]; pagination: { total: number; limit: number; start: number } }>(
    'users/audit',
    { ...params(f), start: page.start, limit: page.limit },
  );
}

/** GET /users/audit.csv with the same filters, saved as a file. */
export async function exportAudit(f: AuditFilters): Promise<void> {
  const { blob, filename } = await api.download('users/audit.csv', params(f));
  if (blob) saveBlob(blob, filename);
}

export interface AuditUser {
  id: number;
  username: string;
}

/** The users the caller may see (the same scope as the audit rows), for the user filter. */
export async function listAuditUsers(): Promise<AuditUser[]> {
  const r = await api.get<{ data: AuditUser[] }>('users/users', { start: 0, limit: 1000 });
  return r.data
    .map((u) => ({ id: u.id, username: u.username }))
    .sort((a, b) => a.username.localeCompare(b.username));
}

export function useAuditUsers() {
  return useQuery({ queryKey: ['audit', 'users'] as const, queryFn: listAuditUsers, staleTime: 60_000 });
}
