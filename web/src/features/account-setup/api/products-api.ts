import type { CategoryList, MidList, NewProductAnswer, NewProductBody, ProductList } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/mids (merchant_id, limit 999): the MIDs whose products the page lists. */
export function getMerchantMidsQueryOptions(merchantId: number) {
  return queryOptions({
    queryKey: [...queryRoots.accountSetup, 'mids', merchantId] as const,
    queryFn: ({ signal }) => api.get<MidList>('cm/mids', { merchant_id: merchantId, limit: 999 }, signal),
  });
}

export function useMerchantMids(merchantId: number) {
  return useQuery(getMerchantMidsQueryOptions(merchantId));
}

/** GET /builder/products (mid_id, limit 999). */
export function getMidProductsQueryOptions(midId: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.accountSetup, 'products', midId ?? 0] as const,
    queryFn: ({ signal }) => api.get<ProductList>('builder/products', { mid_id: midId!, limit: 999 }, signal),
    enabled: midId !== null,
  });
}

export function useMidProducts(midId: number | null) {
  return useQuery(getMidProductsQueryOptions(midId));
}

/** GET /builder/products/categories (mid_id: the tenant's plus the merchant's own). */
export function getProductCategoriesQueryOptions(midId: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.accountSetup, 'categories', midId ?? 0] as const,
    queryFn: ({ signal }) =>
      api.get<CategoryList>('builder/products/categories', { mid_id: midId!, limit: 999 }, signal),
    enabled: midId !== null,
  });
}

export function useProductCategories(midId: number | null) {
  return useQuery(getProductCategoriesQueryOptions(midId));
}

/** POST /builder/products; the MID's list is read again after. */
export function useAddProduct() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewProductBody) => api.post<NewProductAnswer>('builder/products', body),
    onSuccess: (_answer, body) =>
      client.invalidateQueries({ queryKey: getMidProductsQueryOptions(body.mid_id).queryKey }),
  });
}
