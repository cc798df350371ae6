import type { DocTypeList, ProductCategory, ProductList, RelatedCaseList } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /builder/gen/doctypes (case_id, limit 999): document types and their required flags. */
export function useDocTypes(caseId: number) {
  return useQuery({
    queryKey: ['builder', 'doctypes', caseId] as const,
    queryFn: ({ signal }) =>
      api.get<DocTypeList>('builder/gen/doctypes', { case_id: caseId, limit: 999 }, signal),
  });
}

/** GET /builder/products (mid_id, search, limit). */
export function useProducts(midId: number, search: string) {
  return useQuery({
    queryKey: ['builder', 'products', midId, search] as const,
    queryFn: ({ signal }) =>
      api.get<ProductList>(
        'builder/products',
        { mid_id: midId, search: search || undefined, limit: 999 },
        signal,
      ),
  });
}

/** GET /builder/products/categories (limit, search; mid_id adds the merchant's own). */
export function useCategories(midId: number) {
  return useQuery({
    queryKey: ['builder', 'categories', midId] as const,
    queryFn: ({ signal }) =>
      api.get<{ data: ProductCategory[] }>(
        'builder/products/categories',
        { mid_id: midId, limit: 999 },
        signal,
      ),
  });
}

/** Other open cases with the same card number (the step 4 template list). */
export function useRelatedCases(caseId: number) {
  return useQuery({
    queryKey: ['builder', 'related', caseId] as const,
    queryFn: ({ signal }) => api.get<RelatedCaseList>(`builder/case/${caseId}/related`, undefined, signal),
  });
}

export function copyToCases(caseId: number, caseIds: number[]) {
  return api.post<{ message: string; case_ids: number[] }>(`builder/case/${caseId}/template`, {
    case_ids: caseIds,
  });
}
