import type {
  MerchantCreateBody,
  MerchantSaved,
  MerchantTree,
  MidCreateBody,
  MidDetail,
  MidHistory,
  MidSaved,
} from '@portal/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface TreeParams {
  start: number;
  search?: string;
  search_merchant_id?: number;
}

/** GET /cm/merchants/list: one page (20) of the tree (spec 3 §7). */
export function useMerchantTree(p: TreeParams) {
  return useQuery({
    queryKey: ['merchant-tree', p],
    queryFn: ({ signal }) =>
      api.get<MerchantTree>(
        'cm/merchants/list',
        {
          start: p.start,
          limit: 20,
          sort_order: 'asc',
          sort_by: 'business_name',
          search: p.search || undefined,
          search_merchant_id: p.search_merchant_id,
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useMid(id: number | null) {
  return useQuery({
    queryKey: ['mid', id],
    queryFn: ({ signal }) => api.get<MidDetail>(`cm/mids/${id}`, undefined, signal),
    enabled: id !== null,
  });
}

export function useMidHistory(id: number | null, start: number, limit: number, enabled: boolean) {
  return useQuery({
    queryKey: ['mid-history', id, start, limit],
    queryFn: ({ signal }) => api.get<MidHistory>(`cm/mids/${id}/history`, { start, limit }, signal),
    enabled: enabled && id !== null,
    placeholderData: keepPreviousData,
  });
}

interface Named {
  id: number;
  name: string;
  alias?: string;
  code?: string;
}
/** GET /cm/gen/{name} (limit 999): processors, countries, service levels, deflectors. */
export function useLookup(name: 'processors' | 'countries' | 'service-levels' | 'deflectors') {
  return useQuery({
    queryKey: ['lookup', name],
    queryFn: ({ signal }) => api.get<{ data: Named[] }>(`cm/gen/${name}`, { limit: 999 }, signal),
    staleTime: 10 * 60_000,
  });
}

function useInvalidateTree() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['merchant-tree'] }),
      qc.invalidateQueries({ queryKey: ['merchants'] }),
      qc.invalidateQueries({ queryKey: ['mid'] }),
      qc.invalidateQueries({ queryKey: ['mid-history'] }),
    ]);
}

/** POST /cm/merchants or PATCH /cm/merchants/{id}. */
export function useSaveMerchant() {
  const done = useInvalidateTree();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: MerchantCreateBody }) =>
      id === null
        ? api.post<MerchantSaved>('cm/merchants', body)
        : api.patch<MerchantSaved>(`cm/merchants/${id}`, body),
    onSuccess: done,
  });
}

/** POST /cm/mids or PATCH /cm/mids/{id}. */
export function useSaveMid() {
  const done = useInvalidateTree();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: MidCreateBody }) =>
      id === null ? api.post<MidSaved>('cm/mids', body) : api.patch<MidSaved>(`cm/mids/${id}`, body),
    onSuccess: done,
  });
}
