import type {
  MerchantCreateBody,
  MerchantMids,
  MerchantSaved,
  MidAlertActionsBody,
  MidAlertActionsResult,
  MerchantTree,
  MidCreateBody,
  MidDetail,
  MidHistory,
  MidSaved,
  UserList,
} from '@portal/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, saveBlob } from '../../../lib/api-client';

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

export interface MerchantMidsParams {
  merchantId: number;
  start: number;
  search: string;
}

/** GET /cm/merchants/{id}/mids: the Merchant Settings MIDs grid, pages of 50. */
export function useMerchantMids(p: MerchantMidsParams | null) {
  return useQuery({
    queryKey: ['merchant-mids', p],
    queryFn: ({ signal }) =>
      api.get<MerchantMids>(
        `cm/merchants/${p!.merchantId}/mids`,
        { start: p!.start, limit: MIDS_GRID_PAGE, search: p!.search || undefined },
        signal,
      ),
    enabled: p !== null,
    placeholderData: keepPreviousData,
  });
}
export const MIDS_GRID_PAGE = 50;

/** GET /cm/merchants/{id}/mids.csv | .xlsx: every MID of the grid (search applied), saved as a file. */
export async function exportMerchantMids(merchantId: number, format: 'csv' | 'xlsx', search: string) {
  const { blob, filename } = await api.download(`cm/merchants/${merchantId}/mids.${format}`, {
    search: search || undefined,
  });
  if (blob) saveBlob(blob, filename);
}

/** POST /cm/mids/alert-actions: Alert Actions on the selected MIDs. */
export function useMidAlertActions() {
  const done = useInvalidateTree();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MidAlertActionsBody) => api.post<MidAlertActionsResult>('cm/mids/alert-actions', body),
    onSuccess: () => Promise.all([done(), qc.invalidateQueries({ queryKey: ['merchant-mids'] })]),
  });
}

/** GET /users/users for one merchant: the users grid beside the tree (spec 3 §2). */
export function useMerchantUsers(merchantId: number | null, start: number) {
  return useQuery({
    queryKey: ['merchant-users', merchantId, start],
    queryFn: ({ signal }) =>
      api.get<UserList>(
        'users/users',
        {
          merchant_id: merchantId,
          start,
          limit: MERCHANT_USERS_PAGE,
          sort_by: 'username',
          sort_order: 'asc',
        },
        signal,
      ),
    enabled: merchantId !== null,
    placeholderData: keepPreviousData,
  });
}
export const MERCHANT_USERS_PAGE = 10;
