import type {
  CategoryList,
  DocTypeList,
  ProductList,
  RelatedCaseList,
  TemplateCopyAnswer,
} from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /builder/gen/doctypes (case_id, limit 999): document types and their required flags. */
export function getDocTypesQueryOptions(caseId: number) {
  return queryOptions({
    queryKey: [...queryRoots.builder, 'doctypes', caseId] as const,
    queryFn: ({ signal }) =>
      api.get<DocTypeList>('builder/gen/doctypes', { case_id: caseId, limit: 999 }, signal),
  });
}

export function useDocTypes(caseId: number) {
  return useQuery(getDocTypesQueryOptions(caseId));
}

/** Every product list: saving a new product adds to them. */
export const builderProductsKey = [...queryRoots.builder, 'products'] as const;

/** GET /builder/products (mid_id, search, limit). */
export function getProductsQueryOptions(midId: number, search: string) {
  return queryOptions({
    queryKey: [...builderProductsKey, midId, search] as const,
    queryFn: ({ signal }) =>
      api.get<ProductList>(
        'builder/products',
        { mid_id: midId, search: search || undefined, limit: 999 },
        signal,
      ),
  });
}

export function useProducts(midId: number, search: string) {
  return useQuery(getProductsQueryOptions(midId, search));
}

/** GET /builder/products/categories (limit, search; mid_id adds the merchant's own). */
export function getCategoriesQueryOptions(midId: number) {
  return queryOptions({
    queryKey: [...queryRoots.builder, 'categories', midId] as const,
    queryFn: ({ signal }) =>
      api.get<CategoryList>('builder/products/categories', { mid_id: midId, limit: 999 }, signal),
  });
}

export function useCategories(midId: number) {
  return useQuery(getCategoriesQueryOptions(midId));
}

/** Other open cases with the same card number (the step 4 template list). */
export function getRelatedCasesQueryOptions(caseId: number) {
  return queryOptions({
    queryKey: [...queryRoots.builder, 'related', caseId] as const,
    queryFn: ({ signal }) => api.get<RelatedCaseList>(`builder/case/${caseId}/related`, undefined, signal),
  });
}

export function useRelatedCases(caseId: number) {
  return useQuery(getRelatedCasesQueryOptions(caseId));
}

/** POST /builder/case/{id}/template: the case's documents copied to the chosen cases. */
export function copyToCases(caseId: number, caseIds: number[]) {
  return api.post<TemplateCopyAnswer>(`builder/case/${caseId}/template`, { case_ids: caseIds });
}
