import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** The merchant as the details panel reads it (spec 1 §3.2). */
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
  return api
    .get<MerchantDetails | { data: MerchantDetails }>(`cm/merchants/${id}`, undefined, signal)
    .then((r) => ('data' in r && r.data && !('id' in r) ? r.data : (r as MerchantDetails)));
}

export function getMerchantQueryOptions(id: number | null | undefined) {
  return queryOptions({
    queryKey: ['merchants', id],
    queryFn: ({ signal }) => getMerchant(id!, signal),
    enabled: id != null,
    staleTime: 60_000,
  });
}

export function useMerchant(id: number | null | undefined) {
  return useQuery(getMerchantQueryOptions(id));
}
