import type { Mid, NewProductBody, ProductCategory, ProductList } from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/mids (merchant_id, limit 999): the MIDs whose products the page lists. */
export function useMerchantMids(merchantId: number) {
  return useQuery({
    queryKey: ['account-setup', 'mids', merchantId] as const,
    queryFn: ({ signal }) =>
      api.get<{ data: Mid[] }>('cm/mids', { merchant_id: merchantId, limit: 999 }, signal),
  });
}

const productsKey = (midId: number) => ['account-setup', 'products', midId] as const;

/** GET /builder/products (mid_id, limit 999). */
export function useMidProducts(midId: number | null) {
  return useQuery({
    queryKey: productsKey(midId ?? 0),
    queryFn: ({ signal }) => api.get<ProductList>('builder/products', { mid_id: midId!, limit: 999 }, signal),
    enabled: midId !== null,
  });
}

/** GET /builder/products/categories (mid_id: the tenant's plus the merchant's own). */
export function useProductCategories(midId: number | null) {
  return useQuery({
    queryKey: ['account-setup', 'categories', midId ?? 0] as const,
    queryFn: ({ signal }) =>
      api.get<{ data: ProductCategory[] }>(
        'builder/products/categories',
        { mid_id: midId!, limit: 999 },
        signal,
      ),
    enabled: midId !== null,
  });
}

/** POST /builder/products; the MID's list is read again after. */
export function useAddProduct() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewProductBody) =>
      api.post<{ id: number; name: string; type: number }>('builder/products', body),
    onSuccess: (_answer, body) => client.invalidateQueries({ queryKey: productsKey(body.mid_id) }),
  });
}
