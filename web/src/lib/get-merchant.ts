import type { Merchant, MerchantName } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryRoots } from './query-keys';

/**
 * The merchant as the details panel and the merchant form read it (spec 1 §3.2): wider than the
 * answer (Merchant, or MerchantName for a merchant above the caller's subtree). Its alternative shapes
 * (a country object, a service level or deflector status as a number) are never sent; they go when
 * those components read Merchant | MerchantName instead.
 */
export interface MerchantDetails {
  id: number;
  business_name: string;
  alias?: string | null;
  parent_id?: number | null;
  partner_company_id?: string | number | null;
  status?: { id: number; name?: string } | null;
  date_created?: string | null;
  business_address?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: string | { name?: string } | null;
  business_phone?: string | null;
  contact?: {
    username?: string | null;
    fname?: string | null;
    lname?: string | null;
    phone_number?: string | null;
    email?: string | null;
  } | null;
  direct_api?: boolean | null;
  service_level?: { id: number; name?: string } | number | null;
  deflectors?: { id: number; name: string; alias?: string; status?: { id: number } | number | null }[] | null;
  features?: { id: number; alias?: string }[] | null;
  isRootMerchant?: boolean;
}

/** GET cm/merchants/{id}. */
export function getMerchant(id: number, signal?: AbortSignal): Promise<MerchantDetails> {
  return api.get<Merchant | MerchantName>(`cm/merchants/${id}`, undefined, signal);
}

export function getMerchantQueryOptions(id: number | null | undefined) {
  return queryOptions({
    queryKey: [...queryRoots.merchants, id] as const,
    queryFn: ({ signal }) => getMerchant(id!, signal),
    enabled: id != null,
    staleTime: 60_000,
  });
}

export function useMerchant(id: number | null | undefined) {
  return useQuery(getMerchantQueryOptions(id));
}
