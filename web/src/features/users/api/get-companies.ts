import type { Merchant, MerchantList, MerchantListItem, MerchantName } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** Company type-ahead: GET /cm/merchants (search, limit 999), asked from 2 characters on. */
export function searchCompanies(search: string, signal?: AbortSignal): Promise<MerchantListItem[]> {
  return api.get<MerchantList>('cm/merchants', { search, limit: 999 }, signal).then((r) => r.data);
}

export function getCompaniesQueryOptions(search: string) {
  return queryOptions({
    queryKey: [...queryRoots.users, 'companies', search] as const,
    queryFn: ({ signal }) => searchCompanies(search, signal),
    enabled: search.trim().length >= 2,
    retry: false,
  });
}

export function useCompanies(search: string) {
  return useQuery(getCompaniesQueryOptions(search));
}

/**
 * The company as the user form reads it: Merchant, or MerchantName (no domains, no service level)
 * for a company above the caller's subtree. `domain_whitelist` is never sent; it goes with the user
 * form's fallback to it.
 */
export type CompanyInfo = MerchantName &
  Partial<Pick<Merchant, 'allowed_domains' | 'service_level_id'>> & { domain_whitelist?: string[] };

/** The company's allowed email domains and service level: GET /cm/merchants/{id}. */
export function getCompany(id: number, signal?: AbortSignal): Promise<CompanyInfo> {
  return api.get<Merchant | MerchantName>(`cm/merchants/${id}`, undefined, signal);
}

export function getCompanyQueryOptions(id: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.users, 'company', id] as const,
    queryFn: ({ signal }) => getCompany(id!, signal),
    enabled: id !== null,
    retry: false,
    staleTime: 60_000,
  });
}

export function useCompany(id: number | null) {
  return useQuery(getCompanyQueryOptions(id));
}
