import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

export interface LookupItem {
  id: number;
  name?: string;
  code?: string;
  currency?: string;
  card_type?: { id: number; name: string };
  /** Descriptors (/cm/gen/descriptors). */
  descriptor?: string;
}

export interface LookupPage {
  data: LookupItem[];
  pagination: { total: number; limit: number; start: number };
}

const lookupPath = (path: string) => path.replace(/^\/?(api\/)?/, '');

/** GET /cm/gen/{name} (limit 999, optional search): verdicts, rc, currencies, cycles, cctypes, ... */
export function getLookup(path: string, search?: string, signal?: AbortSignal) {
  return api.get<LookupPage>(lookupPath(path), { limit: 999, search }, signal);
}

/** One page of a lookup (`search`, `start`, `limit`; the answer's pagination.total counts all matches). */
export function getLookupPage(
  path: string,
  page: { search?: string; start: number; limit: number },
  signal?: AbortSignal,
) {
  return api.get<LookupPage>(
    lookupPath(path),
    { search: page.search || undefined, start: page.start, limit: page.limit },
    signal,
  );
}

export function getLookupQueryOptions(path: string, search?: string) {
  return {
    queryKey: ['cases', 'lookup', path, search ?? ''] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getLookup(path, search, signal),
    staleTime: 10 * 60_000,
  };
}

export function useLookup(path: string | undefined, search?: string) {
  return useQuery({ ...getLookupQueryOptions(path ?? '', search), enabled: !!path });
}

/** Reason code display name: '{card type name or N/A} - {code}' (spec 2 §3). */
export function lookupLabel(item: LookupItem): string {
  if (item.code !== undefined && item.card_type !== undefined)
    return `${item.card_type?.name ?? 'N/A'} - ${item.code}`;
  return item.name ?? item.currency ?? item.descriptor ?? item.code ?? String(item.id);
}
