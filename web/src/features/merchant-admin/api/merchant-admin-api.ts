import type {
  CountryList,
  DeflectorList,
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
  ProcessorList,
  ServiceLevelList,
  UserList,
} from '@portal/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, saveBlob } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export interface TreeParams {
  start: number;
  search?: string;
  search_merchant_id?: number;
}

/** GET /cm/merchants/list: one page (20) of the tree (spec 3 §7). */
export function getMerchantTreeQueryOptions(p: TreeParams) {
  return queryOptions({
    queryKey: [...queryRoots.merchantTree, p] as const,
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

export function useMerchantTree(p: TreeParams) {
  return useQuery(getMerchantTreeQueryOptions(p));
}

/** Every MID's details and every MID's history: a merchant or MID write changes them. */
const midKey = [...queryRoots.merchantAdmin, 'mid'] as const;
const midHistoryKey = [...queryRoots.merchantAdmin, 'mid-history'] as const;

export function getMidQueryOptions(id: number | null) {
  return queryOptions({
    queryKey: [...midKey, id] as const,
    queryFn: ({ signal }) => api.get<MidDetail>(`cm/mids/${id}`, undefined, signal),
    enabled: id !== null,
  });
}

export function useMid(id: number | null) {
  return useQuery(getMidQueryOptions(id));
}

export function getMidHistoryQueryOptions(id: number | null, start: number, limit: number) {
  return queryOptions({
    queryKey: [...midHistoryKey, id, start, limit] as const,
    queryFn: ({ signal }) => api.get<MidHistory>(`cm/mids/${id}/history`, { start, limit }, signal),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });
}

export function useMidHistory(id: number | null, start: number, limit: number, enabled: boolean) {
  return useQuery({ ...getMidHistoryQueryOptions(id, start, limit), enabled: enabled && id !== null });
}

/** What each lookup the merchant and MID forms read answers (services/case lookups/lookup-routes.ts). */
interface FormLookups {
  processors: ProcessorList;
  countries: CountryList;
  'service-levels': ServiceLevelList;
  deflectors: DeflectorList;
}

/** GET /cm/gen/{name} (limit 999): processors, countries, service levels, deflectors. */
export function getFormLookupQueryOptions<N extends keyof FormLookups>(name: N) {
  return queryOptions({
    queryKey: [...queryRoots.lookups, 'merchant-admin', name] as const,
    queryFn: ({ signal }) => api.get<FormLookups[N]>(`cm/gen/${name}`, { limit: 999 }, signal),
    staleTime: 10 * 60_000,
  });
}

export function useLookup<N extends keyof FormLookups>(name: N) {
  return useQuery(getFormLookupQueryOptions(name));
}

function useInvalidateTree() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: queryRoots.merchantTree }),
      qc.invalidateQueries({ queryKey: queryRoots.merchants }),
      qc.invalidateQueries({ queryKey: midKey }),
      qc.invalidateQueries({ queryKey: midHistoryKey }),
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

/** Every page of the Merchant Settings MIDs grid: alert actions change them. */
const merchantMidsKey = [...queryRoots.merchantAdmin, 'merchant-mids'] as const;

/** GET /cm/merchants/{id}/mids: the Merchant Settings MIDs grid, pages of 50. */
export function getMerchantMidsQueryOptions(p: MerchantMidsParams | null) {
  return queryOptions({
    queryKey: [...merchantMidsKey, p] as const,
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

export function useMerchantMids(p: MerchantMidsParams | null) {
  return useQuery(getMerchantMidsQueryOptions(p));
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
    onSuccess: () => Promise.all([done(), qc.invalidateQueries({ queryKey: merchantMidsKey })]),
  });
}

/** GET /users/users for one merchant: the users grid beside the tree (spec 3 §2). */
export function getMerchantUsersQueryOptions(merchantId: number | null, start: number) {
  return queryOptions({
    queryKey: [...queryRoots.merchantAdmin, 'merchant-users', merchantId, start] as const,
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

export function useMerchantUsers(merchantId: number | null, start: number) {
  return useQuery(getMerchantUsersQueryOptions(merchantId, start));
}
export const MERCHANT_USERS_PAGE = 10;
