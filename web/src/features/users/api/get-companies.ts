import type { MerchantList, MerchantListItem } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Company type-ahead: GET /cm/merchants (search, limit 999), asked from 2 characters on. */
export function searchCompanies(search: string, signal?: AbortSignal): Promise<MerchantListItem[]> {
  return api.get<MerchantList>('cm/merchants', { search, limit: 999 }, signal).then((r) => r.data);
}

export function useCompanies(search: string) {
  return useQuery(
    queryOptions({
      queryKey: ['users', 'companies', search] as const,
      queryFn: ({ signal }) => searchCompanies(search, signal),
      enabled: search.trim().length >= 2,
      retry: false,
    }),
  );
}

/** The company's allowed email domains and service level: GET /cm/merchants/{id}. */
export interface CompanyInfo {
  id: number;
  business_name: string;
  allowed_domains?: string[];
  domain_whitelist?: string[];
  service_level_id?: number;
}

export function getCompany(id: number, signal?: AbortSignal) {
  return api.get<CompanyInfo>(`cm/merchants/${id}`, undefined, signal);
}

export function useCompany(id: number | null) {
  return useQuery(
    queryOptions({
      queryKey: ['users', 'company', id] as const,
      queryFn: ({ signal }) => getCompany(id!, signal),
      enabled: id !== null,
      retry: false,
      staleTime: 60_000,
    }),
  );
}
