import { HttpError, systemContext } from '@portal/core';
import { upstreamError, type UserServiceState } from '../lib/context';

/** What the user service reads of a merchant (owned by the case service: GET /cm/merchants/{id}). */
export interface MerchantInfo {
  id: number;
  business_name: string;
  parent_id: number | null;
  show_alerts_banner?: boolean;
  mids_count?: number;
  service_level_id?: number | null;
  service_level?: { id: number } | null;
  allowed_domains?: string[];
  domain_whitelist?: string[];
}

const MERCHANT_UNAVAILABLE = 'Unable to load merchant data right now. Please try again later.';

/** The merchant of a user: any failure of the case service is a 502, never a guessed merchant. */
export function getMerchant(
  state: UserServiceState,
  tenant: string,
  merchantId: number,
  requestId: string,
): Promise<MerchantInfo> {
  return fetchMerchant(state, tenant, merchantId, requestId, false);
}

/**
 * A merchant named in a request (user administration): one that does not
 * exist is the caller's mistake, 404 'Merchant not found.'; other failures of
 * the case service stay 502.
 */
export function findMerchant(
  state: UserServiceState,
  tenant: string,
  merchantId: number,
  requestId: string,
): Promise<MerchantInfo> {
  return fetchMerchant(state, tenant, merchantId, requestId, true);
}

async function fetchMerchant(
  state: UserServiceState,
  tenant: string,
  merchantId: number,
  requestId: string,
  missingIsNotFound: boolean,
): Promise<MerchantInfo> {
  try {
    return await state.caseClient.get<MerchantInfo>(
      `/cm/merchants/${merchantId}`,
      systemContext(tenant, requestId),
    );
  } catch (error) {
    if (missingIsNotFound && error instanceof HttpError && error.statusCode === 404)
      throw new HttpError(404, 'Merchant not found.');
    throw upstreamError(MERCHANT_UNAVAILABLE, error);
  }
}

/** Email domains a user of this merchant may have (empty = any). */
export function allowedDomains(m: MerchantInfo): string[] {
  return (m.allowed_domains ?? m.domain_whitelist ?? []).map((d) => d.trim().toLowerCase()).filter(Boolean);
}

export function serviceLevelOf(m: MerchantInfo): number | null {
  return m.service_level_id ?? m.service_level?.id ?? null;
}
